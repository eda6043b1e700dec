import './telemetry';
import { vault } from '@orquestra/contracts';
import { ensureIndexes, runService, SecretBox } from '@orquestra/platform';
import { config } from './config';
import { registerCardModel } from './db/card.model';
import { registerCardTokenModel } from './db/card-token.model';
import { registerCardsConfigModel } from './db/cards-config.model';
import { vaultHandlers } from './grpc/vault.handlers';
import { vaultDueWork } from './jobs/vault-due-work';
import { rotateKeysCommand } from './rotate-keys.command';
import { CardsConfigService } from './use-cases/cards-config.service';
import { CardsService } from './use-cases/cards.service';

if (process.argv[2] === 'rotate-keys') {
  // `node main.js rotate-keys` (npm run vault:rotate): re-seals stored card data with the current key, then exits.
  void rotateKeysCommand(config);
} else {
  void runService({
    config,
    grpcAddress: config.GRPC_ADDRESS,
    setup: async ({ db, grpc, outbox, logger, onShutdown }) => {
      // Refuses to start with malformed keys, before anything is served.
      const box = SecretBox.fromConfig(config.CARD_ENCRYPTION_KEYS);
      const configModel = registerCardsConfigModel(db);
      const cardModel = registerCardModel(db);
      const tokenModel = registerCardTokenModel(db);
      await ensureIndexes(db);
      await outbox.watch(cardModel.collection);
      // The payment page (PAY_BASE_URL) is the platform's own: its origin may always show the fields.
      const configs = new CardsConfigService(configModel, { platformOrigins: [new URL(config.PAY_BASE_URL).origin] });
      let kickCard: (at: Date) => void = () => undefined;
      let kickToken: (at: Date) => void = () => undefined;
      const cards = new CardsService(cardModel, tokenModel, configs, box, outbox, {
        fingerprintKey: config.FINGERPRINT_KEY,
        cvcTtlMs: config.CARD_CVC_TTL_MS,
        tokenTtlMs: config.CARD_TOKEN_TTL_MS,
        onCardDue: (at) => kickCard(at),
        onTokenDue: (at) => kickToken(at),
      });
      grpc.addService(vault.VaultServiceService, vaultHandlers(configs, cards), 'orquestra.vault.v1.VaultService');
      const due = vaultDueWork(cardModel, tokenModel, cards, logger, config.VAULT_DUE_POLL_MS);
      kickCard = (at) => due.cardCvc.kickAt(at);
      kickToken = (at) => due.tokenExpiry.kickAt(at);
      due.cardCvc.start();
      due.tokenExpiry.start();
      onShutdown(() => due.cardCvc.stop());
      onShutdown(() => due.tokenExpiry.stop());
    },
  });
}
