import { randomBytes } from 'node:crypto';
import { SecretBox } from '@orquestra/platform';
import type { SubaccountSecretModel } from '../db/subaccount-secret.model';
import { SubaccountSecrets } from './subaccount-secrets';

// The store's failures are the subject here, so the model is a stand-in that fails on command;
// the real store's unique insert is covered by subaccounts.int.spec.ts.
function modelFailing(failures: Array<Error & { code?: number }>) {
  const stored: Array<{ _id: string; secret_sealed: unknown }> = [];
  let calls = 0;
  const model = {
    create: async (doc: { _id: string; secret_sealed: unknown }) => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      stored.push(doc);
      return doc;
    },
  } as unknown as SubaccountSecretModel;
  return { model, stored, calls: () => calls };
}

const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
const SECRET = '$aact_hmlg_issued_once';

describe('subaccount secrets: the only copy of an issued credential', () => {
  it('asks the store again after failures, and keeps the secret sealed', async () => {
    const store = modelFailing([new Error('connection reset'), new Error('not primary')]);
    await new SubaccountSecrets(store.model, box, 6, 1).keep('pa_1', 'sub_1', 'acc_1', SECRET);
    expect(store.calls()).toBe(3);
    expect(store.stored).toHaveLength(1);
    expect(JSON.stringify(store.stored[0])).not.toContain(SECRET);
    expect(box.open(store.stored[0]!.secret_sealed as never)).toBe(SECRET);
  });

  it('gives up after its tries with the store’s error', async () => {
    const store = modelFailing(Array.from({ length: 3 }, () => new Error('store down')));
    await expect(new SubaccountSecrets(store.model, box, 3, 1).keep('pa_1', 'sub_1', 'acc_1', SECRET)).rejects.toThrow('store down');
    expect(store.calls()).toBe(3);
  });

  it('a duplicate is the first secret kept: no retry, no error', async () => {
    const store = modelFailing([Object.assign(new Error('E11000'), { code: 11000 })]);
    await new SubaccountSecrets(store.model, box, 6, 1).keep('pa_1', 'sub_1', 'acc_1', SECRET);
    expect(store.calls()).toBe(1);
    expect(store.stored).toHaveLength(0);
  });
});
