import { connectDatabase, createLogger, SecretBox } from '@orquestra/platform';
import type { Model } from 'mongoose';
import type { VaultConfig } from './config';
import { registerCardModel } from './db/card.model';
import { registerCardTokenModel } from './db/card-token.model';
import { rotateSealedCardData } from './use-cases/rotate-keys';

/**
 * `npm run vault:rotate` (or `node dist/services/vault/main.js rotate-keys` in the vault's image):
 * with the new key first in CARD_ENCRYPTION_KEYS and the old ones after it, re-seals every stored
 * card number and security code with the new key (docs/cards.md "Key rotation"). Exit code 0 when
 * nothing is left under an older key.
 */
export async function rotateKeysCommand(config: VaultConfig): Promise<void> {
  const logger = createLogger({ service: `${config.SERVICE_NAME}-rotate-keys`, level: config.LOG_LEVEL });
  const box = SecretBox.fromConfig(config.CARD_ENCRYPTION_KEYS);
  const db = await connectDatabase({ url: config.MONGO_URL, dbName: `${config.DB_PREFIX}${config.SERVICE_NAME}`, logger });
  try {
    const result = await rotateSealedCardData([registerCardModel(db), registerCardTokenModel(db)] as unknown as Array<Model<never>>, box, logger);
    logger.info(result, result.remaining === 0 ? 'key rotation done: every card is sealed with the current key' : 'key rotation: some cards changed while it ran; run it again');
    process.exitCode = result.remaining === 0 ? 0 : 1;
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'key rotation failed; run it again (it resumes)');
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}
