/**
 * The setup every Woovi contract test shares (test-only): the emulator on free ports, a webhook
 * recorder standing in for our intake, and the real WooviAdapter verifying the emulator's
 * RSA-signed webhooks with its published key, its webhook registered.
 */
import { startWebhookRecorder, type WebhookRecorder } from '../testing/contract-kit';
import { WooviAdapter } from './woovi.adapter';

/** The emulator as the kit uses it (the spec creates it: only spec files may import emulators). */
export interface ContractEmulator {
  start(): Promise<{ apiPort: number; controlPort: number }>;
  stop(): Promise<void>;
}

export interface WooviContract {
  adapter: WooviAdapter;
  /** The emulator's API base (for a call the adapter would not make). */
  apiUrl: string;
  controlUrl: string;
  receiver: WebhookRecorder;
  stop(): Promise<void>;
}

export async function startWooviContract(options: {
  appId: string;
  webhookSecret: string;
  /** The intake path's account segment (`/webhooks/woovi/<account>`). */
  account: string;
  /** Created by the spec with `options.appId` as its account, not started. */
  emulator: ContractEmulator;
}): Promise<WooviContract> {
  const { emulator } = options;
  const ports = await emulator.start();
  const controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  const publicKeyPem = await (await fetch(`${controlUrl}/__control/public-key`)).text();
  const receiver = await startWebhookRecorder();
  const webhookUrl = `${receiver.url}/webhooks/woovi/${options.account}?hmac=${options.webhookSecret}`;
  const adapter = new WooviAdapter({
    baseUrl: `http://127.0.0.1:${ports.apiPort}`,
    credentials: { app_id: options.appId },
    webhookUrl,
    webhookSecret: options.webhookSecret,
    settings: { webhook_public_key: publicKeyPem },
    timeoutMs: 5_000,
  });
  await adapter.registerWebhook(webhookUrl);
  return {
    adapter,
    apiUrl: `http://127.0.0.1:${ports.apiPort}`,
    controlUrl,
    receiver,
    stop: async () => {
      await adapter.close();
      await emulator.stop();
      await receiver.close();
    },
  };
}
