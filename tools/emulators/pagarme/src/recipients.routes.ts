/**
 * `POST /recipients` (with `idempotency-key`), `GET /recipients` (the account's own recipient and
 * those it created, newest first), `GET /recipients/{id or code}`, `GET /recipients/{id}/balance`
 * and `POST /recipients/{id}/kyc_link` for recipients created by API (recipients.ts). Anything about
 * the account's own recipient falls through to withdrawals.routes.ts.
 */
import { Router, type Response } from 'express';
import { qrCodePngBase64 } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { idempotentReplay } from './idempotency';
import { PagarmeApiError, pagarmeErrors } from './pagarme-errors';
import { newId } from './pagarme-ids';
import { recipientJson, recipientSchema, type StoredRecipient } from './recipients';
import { recipientJson as ownRecipientJson } from './withdrawals.routes';

const accountOf = (res: Response) => res.locals['accountId'] as string;

/** The KYC link is valid for a day (unconfirmed). */
const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const mismatch = (errors: Record<string, string[]>, request: unknown) => pagarmeErrors.invalid(errors, request);

export function recipientRoutes(state: EmulatorState): Router {
  const router = Router();
  const own = (res: Response, idOrCode: string | undefined): StoredRecipient | undefined => state.recipientOf(accountOf(res), idOrCode ?? '');

  router.post('/recipients', idempotentReplay(state), (req, res) => {
    const parsed = recipientSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[['recipient', ...issue.path].join('.')] ??= []).push(`The field is invalid: ${issue.message}`);
      throw pagarmeErrors.invalid(errors, req.body);
    }
    const request = parsed.data;
    if ((request.type === 'individual') !== (request.document.length === 11)) throw mismatch({ 'recipient.type': ['The type does not match the document.'] }, req.body);
    if (request.default_bank_account.holder_document !== request.document) throw mismatch({ 'recipient.default_bank_account.holder_document': ['The bank account must belong to the recipient.'] }, req.body);
    if (request.register_information.type !== request.type) throw mismatch({ 'recipient.register_information.type': ['The type does not match the recipient.'] }, req.body);
    if (state.recipientOf(accountOf(res), request.code)) throw mismatch({ 'recipient.code': ['A recipient with this code already exists.'] }, req.body);
    const at = state.now().toISOString();
    const recipient = state.createRecipient({ id: newId('rp'), accountId: accountOf(res), request, status: 'registration', bankAccountId: `ba_${newId('rp').slice(3)}`, createdAt: at, updatedAt: at });
    res.status(200).json(recipientJson(recipient));
  });

  router.get('/recipients', (_req, res) => {
    const created = state.recipientsOf(accountOf(res)).map(recipientJson);
    res.status(200).json({ data: [ownRecipientJson(state, accountOf(res)), ...created], paging: { total: created.length + 1 } });
  });

  router.get('/recipients/:id', (req, res, next) => {
    const recipient = own(res, req.params['id']);
    if (!recipient) return next();
    res.status(200).json(recipientJson(recipient));
  });

  router.get('/recipients/:id/balance', (req, res, next) => {
    const recipient = own(res, req.params['id']);
    if (!recipient) return next();
    const { available, pending } = state.withdrawals.balance(recipient.id);
    const transferred = state.withdrawals.list(recipient.id).filter((w) => w.status === 'paid').reduce((sum, w) => sum + w.amount, 0);
    res.status(200).json({ currency: 'BRL', available_amount: available, waiting_funds_amount: pending, transferred_amount: transferred, recipient: recipientJson(recipient) });
  });

  router.post('/recipients/:id/kyc_link', async (req, res) => {
    const recipient = own(res, req.params['id']);
    if (!recipient) throw new PagarmeApiError(404, { message: 'Recipient not found.' });
    if (recipient.status !== 'registration' && recipient.status !== 'affiliation') throw new PagarmeApiError(412, { message: `Recipient status does not allow a KYC link: ${recipient.status}.` });
    const url = `https://kyc.pagar.me/emulator/${recipient.id}/${newId('hook').slice(5)}`;
    res.status(200).json({ url, base64_qrcode: await qrCodePngBase64(url), expiration_date: new Date(state.now().getTime() + KYC_LINK_TTL_MS).toISOString() });
  });

  return router;
}
