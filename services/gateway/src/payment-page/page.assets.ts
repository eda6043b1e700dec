/**
 * The page's only style and script, inlined (one request, no framework) and allowed by the CSP
 * through a per-response nonce. The script is progressive enhancement: without it the page still
 * works (the form posts, a reload shows the new state).
 */
export const PAGE_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f5f7;color:#1d2733}
main{max-width:440px;margin:24px auto;padding:24px;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.1rem;margin:0 0 4px;color:#4a5663;font-weight:500}.amount{font-size:2rem;font-weight:700;margin:0}
.description{margin:4px 0 16px;color:#4a5663;overflow-wrap:anywhere}.test{background:#fff4ce;color:#6b5200;padding:6px 10px;border-radius:6px;font-size:.85rem;margin-bottom:12px}
.methods{display:grid;gap:10px;margin:12px 0}.methods button,.button{display:block;width:100%;padding:12px;border:1px solid #0b6bcb;border-radius:8px;background:#0b6bcb;color:#fff;font-size:1rem;text-align:center;text-decoration:none;cursor:pointer}
.secondary{background:#fff;color:#0b6bcb}.error{background:#fde8e8;color:#8a1c1c;padding:10px;border-radius:6px;margin:12px 0}
.qr{display:block;width:240px;height:240px;margin:8px auto}textarea{width:100%;min-height:88px;font:12px/1.4 ui-monospace,monospace;padding:8px;border:1px solid #c9d1d9;border-radius:6px;resize:none}
.hint{color:#4a5663;font-size:.9rem}.final{text-align:center;padding:16px 0}.final .icon{font-size:3rem;line-height:1}.ok{color:#137333}.bad{color:#8a1c1c}
.line{font:14px ui-monospace,monospace;overflow-wrap:anywhere;background:#f3f5f7;padding:8px;border-radius:6px}
.card-pay{border:1px solid #c9d1d9;border-radius:8px;padding:12px;margin:12px 0}.card-pay h3{font-size:1rem;margin:0 0 8px}.card-pay[hidden],.error[hidden]{display:none}
button:disabled{opacity:.6;cursor:wait}button:focus-visible,.button:focus-visible{outline:3px solid #1d2733;outline-offset:2px}
`;

/**
 * Copy button, double-submit guard, polling (every 3 s while open), the card redirect, and the
 * card fields: the card button opens them, "Pagar" tokenizes in the iframe (the card goes to the
 * vault) and the form posts method=card with the tok_ only.
 */
export const PAGE_JS = `
(function(){
  var panel=document.getElementById('panel');
  var form=document.getElementById('choose');
  if(form){var sent=false;form.addEventListener('submit',function(e){if(sent){e.preventDefault();return;}sent=true;form.setAttribute('aria-busy','true');});}
  var cardOpen=document.getElementById('card-open');
  var cardPay=document.getElementById('card-pay');
  if(form&&cardOpen&&cardPay&&window.Orquestra&&window.Orquestra.cardFields){
    var fields=null;var busy=false;
    var cardError=document.getElementById('card-error');
    var cardSubmit=document.getElementById('card-submit');
    var showError=function(text){cardError.textContent=text;cardError.hidden=false;};
    cardOpen.addEventListener('click',function(e){e.preventDefault();
      cardPay.hidden=false;cardOpen.setAttribute('aria-expanded','true');
      if(!fields){
        try{fields=window.Orquestra.cardFields({publishableKey:cardPay.getAttribute('data-pk'),container:'#card-fields'});}
        catch(err){showError('O pagamento com cartão está indisponível agora. Escolha outra forma de pagamento.');cardSubmit.disabled=true;return;}
        fields.ready.then(function(){fields.focus();},function(err){showError(err.message||'O pagamento com cartão está indisponível agora.');cardSubmit.disabled=true;});
      }else{fields.focus();}
    });
    cardSubmit.addEventListener('click',function(){
      if(busy||!fields)return;busy=true;cardError.hidden=true;
      var label=cardSubmit.textContent;cardSubmit.disabled=true;cardSubmit.setAttribute('aria-busy','true');cardSubmit.textContent='Processando…';
      fields.tokenize().then(function(card){
        var token=document.getElementById('card-token');token.value=card.token;token.disabled=false;
        document.getElementById('card-method').disabled=false;
        form.setAttribute('aria-busy','true');form.submit();
      },function(err){busy=false;cardSubmit.disabled=false;cardSubmit.removeAttribute('aria-busy');cardSubmit.textContent=label;
        showError(err&&err.message?err.message:'Confira os dados do cartão e tente de novo.');});
    });
  }
  var copy=document.getElementById('copy');
  if(copy){copy.addEventListener('click',function(){var code=document.getElementById('pix-code');
    var done=function(){copy.textContent='Código copiado!';};
    if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(code.value).then(done,function(){code.select();document.execCommand('copy');done();});}
    else{code.select();document.execCommand('copy');done();}});}
  var go=document.getElementById('redirect');
  if(go&&go.getAttribute('href')){setTimeout(function(){window.location.href=go.getAttribute('href');},1500);}
  var status=panel&&panel.getAttribute('data-status');
  if(status!=='pending'&&status!=='processing')return;
  var timer=setInterval(function(){
    fetch(window.location.pathname.replace(/\\/$/,'')+'/status',{headers:{accept:'application/json'},cache:'no-store'})
      .then(function(r){return r.ok?r.json():null;})
      .then(function(s){if(!s||s.status===status)return;
        if(s.final){clearInterval(timer);panel.outerHTML=s.html;}else{window.location.reload();}})
      .catch(function(){});
  },3000);
})();
`;
