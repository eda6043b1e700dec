import { randomBytes } from 'node:crypto';
import { modeFromName, oauth } from '@orquestra/contracts';
import { AppError, type Handlers, type SecretBox } from '@orquestra/platform';
import type { AccountsModels } from '../db/accounts.models';
import type { OAuthAppDoc, OAuthModelDoc, OAuthModels } from '../db/oauth.models';
import { grantOfScope, isAllowedLogoUrl, isAllowedRedirectUri, merchantOfAccountId } from '../domain/oauth-grant';

const { AuthorizationAccess } = oauth;

/** The library's model names (oidc-provider's Adapter contract); Client comes from oauth_apps. */
const STORED_MODELS = new Set([
  'Session', 'AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'ClientCredentials', 'Client',
  'InitialAccessToken', 'RegistrationAccessToken', 'Interaction', 'ReplayDetection', 'PushedAuthorizationRequest',
  'Grant', 'BackchannelAuthenticationRequest',
]);

function checkedModel(model: string): string {
  if (!STORED_MODELS.has(model)) throw new AppError('parameter_invalid', { param: 'model' });
  return model;
}

function docId(model: string, id: string): string {
  if (!id) throw new AppError('parameter_missing', { param: 'id' });
  return `${checkedModel(model)}:${id}`;
}

/** Unexpired filter: a TTL monitor may run late (or, in the local store, not at all). */
function live(now: Date) {
  return { $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

/** The library's payload with `consumed` (unix seconds) when the model was consumed. */
function payloadOf(doc: Pick<OAuthModelDoc, 'payload_json' | 'consumed_at'> | null): { found: boolean; payload_json: string } {
  if (!doc) return { found: false, payload_json: '' };
  if (!doc.consumed_at) return { found: true, payload_json: doc.payload_json };
  const payload = JSON.parse(doc.payload_json) as Record<string, unknown>;
  return { found: true, payload_json: JSON.stringify({ ...payload, consumed: Math.floor(doc.consumed_at.getTime() / 1000) }) };
}

function toApp(doc: OAuthAppDoc): oauth.OAuthApp {
  return { id: doc._id, name: doc.name, redirect_uris: doc.redirect_uris, logo_url: doc.logo_url, created_at: doc.created_at.toISOString() };
}

/** The app as the library's Client metadata (confidential web client, code + refresh only). */
function clientPayload(doc: OAuthAppDoc, box: SecretBox): string {
  return JSON.stringify({
    client_id: doc._id,
    client_secret: box.open(doc.secret),
    client_name: doc.name,
    redirect_uris: doc.redirect_uris,
    ...(doc.logo_url ? { logo_uri: doc.logo_url } : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
}

/**
 * The OAuth store (OAuthStoreService). Every write is one atomic single-document write or a
 * delete by an indexed key; consume is a conditional update. `box` seals app secrets (the owners'
 * secrets box, OWNER_SECRETS_KEYS): the library needs the plain secret back to check a client.
 */
export function oauthStoreHandlers(
  models: OAuthModels & Pick<AccountsModels, 'merchants'>,
  box: SecretBox,
): Handlers<typeof oauth.OAuthStoreServiceService> {

  return {
    async upsertModel({ model, id, payload_json, expires_in }) {
      if (model === 'Client') throw new AppError('parameter_invalid', { param: 'model' });
      const _id = docId(model, id);
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(payload_json) as Record<string, unknown>;
      } catch {
        throw new AppError('parameter_invalid', { param: 'payload_json' });
      }
      // A grant's scope sits under `openid` (the library's OIDC scopes), a token's at the top.
      const granted = grantOfScope(model === 'Grant' ? (payload.openid as { scope?: unknown } | undefined)?.scope : payload.scope);
      const now = new Date();
      const str = (value: unknown) => (typeof value === 'string' && value ? value : null);
      await models.oauthModels.updateOne(
        { _id },
        {
          $set: {
            model,
            payload_json,
            grant_id: str(payload.grantId) ?? (model === 'Grant' ? id : null),
            uid: str(payload.uid),
            user_code: str(payload.userCode),
            client_id: str(payload.clientId),
            merchant_id: merchantOfAccountId(payload.accountId) ?? null,
            mode: granted?.mode ?? null,
            expires_at: Number(expires_in) > 0 ? new Date(now.getTime() + Number(expires_in) * 1000) : null,
            updated_at: now,
          },
          $setOnInsert: { consumed_at: null },
        },
        { upsert: true },
      );
      return {};
    },

    async findModel({ model, id }) {
      if (model === 'Client') {
        const app = await models.oauthApps.findById(id).lean();
        return app ? { found: true, payload_json: clientPayload(app, box) } : { found: false, payload_json: '' };
      }
      return payloadOf(await models.oauthModels.findOne({ _id: docId(model, id), ...live(new Date()) }).lean());
    },

    async findModelByUid({ model, uid }) {
      if (!uid) throw new AppError('parameter_missing', { param: 'uid' });
      return payloadOf(await models.oauthModels.findOne({ uid, model: checkedModel(model), ...live(new Date()) }).lean());
    },

    async findModelByUserCode({ model, user_code }) {
      if (!user_code) throw new AppError('parameter_missing', { param: 'user_code' });
      return payloadOf(await models.oauthModels.findOne({ user_code, model: checkedModel(model), ...live(new Date()) }).lean());
    },

    async consumeModel({ model, id }) {
      // Conditional: only the first consume stamps the time; replays keep the first stamp.
      await models.oauthModels.updateOne({ _id: docId(model, id), consumed_at: null }, { $set: { consumed_at: new Date() } });
      return {};
    },

    async destroyModel({ model, id }) {
      await models.oauthModels.deleteOne({ _id: docId(model, id) });
      return {};
    },

    async revokeByGrantId({ grant_id }) {
      if (!grant_id) throw new AppError('parameter_missing', { param: 'grant_id' });
      await models.oauthModels.deleteMany({ grant_id });
      return {};
    },

    async registerApp({ merchant_id, name, redirect_uris, logo_url }) {
      if (!(await models.merchants.findById(merchant_id).lean())) throw new AppError('not_found', { param: 'merchant_id' });
      const cleanName = name.trim();
      if (!cleanName) throw new AppError('parameter_missing', { param: 'name' });
      if (cleanName.length > 100) throw new AppError('parameter_invalid', { param: 'name' });
      if (redirect_uris.length === 0) throw new AppError('parameter_missing', { param: 'redirect_uris' });
      if (redirect_uris.length > 10 || !redirect_uris.every(isAllowedRedirectUri)) {
        throw new AppError('parameter_invalid', {
          param: 'redirect_uris',
          message: 'Use até 10 URIs de redirecionamento https (ou http://localhost para desenvolvimento), sem fragmento (#).',
        });
      }
      if (!isAllowedLogoUrl(logo_url)) throw new AppError('parameter_invalid', { param: 'logo_url', message: 'Use uma URL https para o logo.' });
      const secret = `oas_${randomBytes(32).toString('base64url')}`;
      const doc: OAuthAppDoc = {
        _id: `oapp_${randomBytes(12).toString('hex')}`,
        merchant_id,
        name: cleanName,
        redirect_uris: [...new Set(redirect_uris)],
        logo_url,
        secret: box.seal(secret),
        created_at: new Date(),
      };
      await models.oauthApps.create(doc);
      return { app: toApp(doc), client_secret: secret };
    },

    async listApps({ merchant_id }) {
      const docs = await models.oauthApps.find({ merchant_id }).sort({ created_at: -1 }).lean();
      return { apps: docs.map(toApp) };
    },

    async deleteApp({ merchant_id, app_id }) {
      const result = await models.oauthApps.deleteOne({ _id: app_id, merchant_id });
      if (result.deletedCount === 0) throw new AppError('not_found', { param: 'app_id' });
      // Grants first: a refresh racing this finds no grant and fails; then every code and token.
      await models.oauthModels.deleteMany({ client_id: app_id, model: 'Grant' });
      await models.oauthModels.deleteMany({ client_id: app_id });
      return {};
    },

    async listAuthorizations({ merchant_id }) {
      if (!merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
      const grants = await models.oauthModels.find({ merchant_id, model: 'Grant', ...live(new Date()) }).lean();
      const appIds = [...new Set(grants.map((grant) => grant.client_id).filter((id): id is string => !!id))];
      const apps = new Map((await models.oauthApps.find({ _id: { $in: appIds } }).lean()).map((app) => [app._id, app]));
      const authorizations = grants.flatMap((grant): oauth.OAuthAuthorization[] => {
        const app = grant.client_id ? apps.get(grant.client_id) : undefined;
        const payload = JSON.parse(grant.payload_json) as { iat?: number; openid?: { scope?: string } };
        const granted = grantOfScope(payload.openid?.scope);
        if (!app || !granted) return [];
        return [{
          id: grant._id.slice('Grant:'.length),
          app_id: app._id,
          app_name: app.name,
          app_logo_url: app.logo_url,
          mode: modeFromName(granted.mode),
          access: granted.access === 'full' ? AuthorizationAccess.AUTHORIZATION_ACCESS_FULL : AuthorizationAccess.AUTHORIZATION_ACCESS_RESTRICTED,
          created_at: new Date((payload.iat ?? 0) * 1000).toISOString(),
        }];
      });
      authorizations.sort((a, b) => b.created_at.localeCompare(a.created_at));
      return { authorizations };
    },

    async revokeAuthorization({ merchant_id, authorization_id }) {
      if (!merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
      // The grant first (scoped to the merchant), so no refresh can mint a token after the sweep.
      const result = await models.oauthModels.deleteOne({ _id: `Grant:${authorization_id}`, merchant_id });
      if (result.deletedCount === 0) throw new AppError('not_found', { param: 'authorization_id' });
      await models.oauthModels.deleteMany({ grant_id: authorization_id });
      return {};
    },
  };
}
