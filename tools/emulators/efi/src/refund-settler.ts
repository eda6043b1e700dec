/**
 * Devoluções settle after a short while, as at a real PSP: EM_PROCESSAMENTO when asked for, then
 * the configured outcome (DEVOLVIDO by default) and the Pix webhook carrying `devolucoes[]`.
 */
import type { Devolucao, EmulatorState, PixHolder, PixRecebido, RefundBehaviour } from './emulator-state';
import { Timers, type Logger } from '../../kit';
import type { EnvioBook } from './envio.routes';
import type { WebhookSender } from './webhook-sender';

export class RefundSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly state: EmulatorState,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    /** The account's balance, which a devolução made leaves. */
    private readonly envios?: EnvioBook,
  ) {}

  schedule(charge: PixHolder, pix: PixRecebido, devolucao: Devolucao): void {
    const behaviour = this.state.refundBehaviour(charge.clientId);
    this.timers.after(behaviour.settleAfterMs, () => {
      this.settle(charge, pix, devolucao, behaviour.outcome);
    });
  }

  private settle(charge: PixHolder, pix: PixRecebido, devolucao: Devolucao, outcome: RefundBehaviour['outcome']): void {
    if (!this.state.settleDevolucao(devolucao, outcome)) return;
    if (outcome === 'DEVOLVIDO') this.envios?.debit(charge.clientId, Math.round(Number(devolucao.valor) * 100));
    const registration = this.state.getWebhook(charge.clientId, charge.request.chave);
    if (registration) this.sender.notifyPix(charge, registration, pix);
    this.logger.info({ client: charge.clientId, txid: charge.txid, devolucao: devolucao.id, status: outcome, webhook: Boolean(registration) }, 'devolução settled');
  }

  close(): void {
    this.timers.clear();
  }
}
