/** The reference page's stylesheet, inlined (the page loads nothing else). */
export const REFERENCE_CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:300px;flex:none;background:#f5f7fa;border-right:1px solid #e4e7eb;padding:16px;font-size:13px}
nav ul{list-style:none;padding-left:8px;margin:4px 0}nav a{color:#1f2933;text-decoration:none}nav a:hover{text-decoration:underline}
.brand{font-weight:700;font-size:16px;margin:0 0 8px}.m{display:inline-block;width:52px;font-weight:600;font-size:11px;color:#52606d}
main{flex:1;min-width:0;padding:24px 40px;max-width:1100px}h1 small{font-size:14px;color:#7b8794;font-weight:400}
h2{border-bottom:2px solid #e4e7eb;padding-bottom:4px;margin-top:48px}
.operation,.schema{border:1px solid #e4e7eb;border-radius:6px;padding:12px 16px;margin:16px 0}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:2px 6px}
.get{background:#2680c2}.post{background:#3f9142}.patch,.put{background:#c99a2e}.delete{background:#ba2525}
.path{font-size:15px}.summary{font-weight:600}.auth,.note,.type{color:#52606d;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:8px 0}th,td{border:1px solid #e4e7eb;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f7fa}.req{color:#ba2525;font-size:11px}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#1f2933;color:#f5f7fa;padding:10px;border-radius:4px;overflow:auto;font-size:12px}
.status{display:inline-block;min-width:40px;font-weight:700}.status.ok{color:#3f9142}.status.err{color:#ba2525}
details summary{cursor:pointer;font-size:13px;color:#52606d}.response{margin:6px 0 10px}
`;
