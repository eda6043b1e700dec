import { customers as customersContract, modeFromName } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, taxIdKey } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import type { CustomerDoc, CustomerModel } from './customer.model';
import type { PaymentDoc } from './payment.model';


export function toProtoCustomer(doc: CustomerDoc): customersContract.CustomerRecord {
  return {
    id: doc._id,
    name: doc.name,
    email: doc.email,
    document: doc.document,
    phone: doc.phone,
    mode: modeFromName(doc.mode),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/**
 * Customer records (`customers` collection of the payments database). A payment naming a CPF/CNPJ
 * is linked to the merchant's record for that document in that mode, created on first sight (a
 * unique index makes concurrent first payments converge on one record); the record keeps the
 * latest name, e-mail and phone given.
 */
export class CustomerStore {
  constructor(readonly model: CustomerModel) {}

  /** The customer id for the payment's buyer, or undefined when no document was given. */
  async link(payment: Pick<PaymentDoc, 'merchant_id' | 'mode' | 'customer'>): Promise<string | undefined> {
    return (await this.upsert(payment))?.id;
  }

  /**
   * The merchant's record for the buyer's document in that mode, made on first sight (`created`);
   * undefined when the buyer has no CPF/CNPJ.
   */
  async upsert(payment: Pick<PaymentDoc, 'merchant_id' | 'mode' | 'customer'>): Promise<{ id: string; created: boolean } | undefined> {
    const document = taxIdKey(payment.customer.document);
    if (document.length !== 11 && document.length !== 14) return undefined;
    const key = { merchant_id: payment.merchant_id, mode: payment.mode, document };
    const latest = { name: payment.customer.name, email: payment.customer.email ?? '', phone: payment.customer.phone ?? '' };
    const existing = await this.model.findOne(key).lean<CustomerDoc>();
    if (existing) {
      // Last writer wins on contact data; the record's identity (document) never changes.
      if (existing.name !== latest.name || (latest.email && existing.email !== latest.email) || (latest.phone && existing.phone !== latest.phone)) {
        await this.model.updateOne(
          { _id: existing._id },
          { $set: { name: latest.name, ...(latest.email ? { email: latest.email } : {}), ...(latest.phone ? { phone: latest.phone } : {}), updated_at: new Date() } },
        );
      }
      return { id: existing._id, created: false };
    }
    const now = new Date();
    const doc: CustomerDoc = { _id: newId('customer'), ...key, ...latest, created_at: now, updated_at: now };
    try {
      await this.model.create(doc);
      return { id: doc._id, created: true };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const winner = await this.model.findOne(key).lean<CustomerDoc>();
      return winner ? { id: winner._id, created: false } : undefined;
    }
  }

  async get(id: string, scope: { merchantId: string; mode: 'test' | 'live' }): Promise<CustomerDoc> {
    const doc = await this.model.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode }).lean<CustomerDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Cliente ${id} não encontrado. Confira o id (cus_…) e o modo (teste ou produção) da chave.` });
    return doc;
  }

  async list(
    scope: { merchantId: string; mode: 'test' | 'live' },
    query: { document: string; email: string; limit: number; startingAfter: string },
  ): Promise<{ data: CustomerDoc[]; hasMore: boolean }> {
    const filter: FilterQuery<CustomerDoc> = { merchant_id: scope.merchantId, mode: scope.mode };
    if (query.document) filter.document = taxIdKey(query.document);
    if (query.email) filter.email = { $regex: `^${query.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, $options: 'i' };
    // Ids are ULIDs: newest first, and a cursor stays correct while customers are created.
    if (query.startingAfter) filter._id = { $lt: query.startingAfter };
    const found = await this.model.find(filter).sort({ _id: -1 }).limit(query.limit + 1).lean<CustomerDoc[]>();
    return { data: found.slice(0, query.limit), hasMore: found.length > query.limit };
  }
}
