import './telemetry';
import { accounts, API_KEYS_CHANGED, oauth, owners } from '@orquestra/contracts';
import { ensureIndexes, runService, SecretBox } from '@orquestra/platform';
import { config } from './config';
import { registerAccountsModels } from './db/accounts.models';
import { registerOAuthModels } from './db/oauth.models';
import { AuditStore } from './db/audit.store';
import { registerOwnerModels } from './db/owner.models';
import { SignInLimiter } from './db/sign-in-limiter';
import { accountsHandlers } from './grpc/accounts.handlers';
import { oauthStoreHandlers } from './grpc/oauth-store.handlers';
import { ownersHandlers } from './grpc/owners.handlers';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus }) => {
    const models = { ...registerAccountsModels(db), ...registerOwnerModels(db), ...registerOAuthModels(db) };
    await ensureIndexes(db);
    // Owner secrets: TOTP seeds and OAuth app secrets, sealed with the same keys.
    const box = SecretBox.fromConfig(config.OWNER_SECRETS_KEYS);
    const audit = new AuditStore(models.audit);
    const limiter = new SignInLimiter(models.signInCounters, {
      windowMs: config.SIGN_IN_WINDOW_MINUTES * 60_000,
      maxPerEmail: config.SIGN_IN_MAX_PER_EMAIL,
      maxPerIp: config.SIGN_IN_MAX_PER_IP,
    });
    grpc.addService(
      accounts.AccountsServiceService,
      accountsHandlers(models, {
        audit,
        onKeyRevoked: ({ key_id, merchant_id, mode }) => bus.signal(API_KEYS_CHANGED, { merchant_id, mode }, { key_id, reason: 'revoked' }),
      }),
      'orquestra.accounts.v1.AccountsService',
    );
    grpc.addService(
      owners.OwnersServiceService,
      ownersHandlers({ models, box, limiter, audit, sessionTtlHours: config.SESSION_TTL_HOURS }),
      'orquestra.accounts.v1.OwnersService',
    );
    grpc.addService(oauth.OAuthStoreServiceService, oauthStoreHandlers(models, box), 'orquestra.accounts.v1.OAuthStoreService');
  },
});
