import { Schema, type Connection, type Model } from 'mongoose';
import type { SealedSecret } from '@orquestra/platform';

/** A merchant's owner (dashboard user). One owner per merchant today; the e-mail is unique. */
export interface OwnerDoc {
  _id: string;
  email: string;
  merchant_id: string;
  /** The merchant's name as signed up: lets a sign-in finish a sign-up interrupted before the merchant insert. */
  merchant_name: string;
  /** argon2id PHC string (domain/password.ts). */
  password_hash: string;
  /** Bumped by "sign out everywhere": a session of an older epoch is dead (one atomic write). */
  session_epoch: number;
  totp_enabled: boolean;
  /** The active second factor's secret, sealed (SecretBox); null when TOTP is off. */
  totp_secret: SealedSecret | null;
  /** A secret being set up (SetupTotp), active only after EnableTotp proves it with a code. */
  totp_pending: SealedSecret | null;
  /** The last TOTP time step accepted: a code is never accepted twice (guarded update). */
  totp_last_step: number;
  created_at: Date;
}

/** A session: `_id` is the SHA-256 (hex) of the token the cookie holds; the token is never stored. */
export interface SessionDoc {
  _id: string;
  owner_id: string;
  merchant_id: string;
  epoch: number;
  ip: string;
  created_at: Date;
  expires_at: Date;
}

/** One rate-limit counter: `<scope>:<value>:<window start ms>`, incremented once per attempt. */
export interface SignInCounterDoc {
  _id: string;
  count: number;
  expires_at: Date;
}

export interface AuditEntryDoc {
  _id: string;
  merchant_id: string;
  owner_id: string;
  actor: string;
  action: string;
  target: string;
  mode: 'test' | 'live' | '';
  ip: string;
  created_at: Date;
}

const sealedSchema = new Schema<SealedSecret>({ key_id: String, iv: String, tag: String, data: String }, { _id: false });

const ownerSchema = new Schema<OwnerDoc>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    merchant_id: { type: String, required: true },
    merchant_name: { type: String, required: true },
    password_hash: { type: String, required: true },
    session_epoch: { type: Number, required: true },
    totp_enabled: { type: Boolean, required: true },
    totp_secret: { type: sealedSchema, default: null },
    totp_pending: { type: sealedSchema, default: null },
    totp_last_step: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// Sign-up races end on this index: the same e-mail twice at once makes one owner.
ownerSchema.index({ email: 1 }, { unique: true });
ownerSchema.index({ merchant_id: 1 });

const sessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    owner_id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    epoch: { type: Number, required: true },
    ip: { type: String, default: '' },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false },
);
sessionSchema.index({ owner_id: 1 });
// Expired sessions are refused by their expires_at; MongoDB also deletes them (TTL index).
sessionSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

const counterSchema = new Schema<SignInCounterDoc>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false },
);
counterSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

const auditSchema = new Schema<AuditEntryDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    owner_id: { type: String, default: '' },
    actor: { type: String, default: '' },
    action: { type: String, required: true },
    target: { type: String, default: '' },
    mode: { type: String, enum: ['test', 'live', ''], default: '' },
    ip: { type: String, default: '' },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The dashboard reads a merchant's log newest first, paged by id (ids sort by time).
auditSchema.index({ merchant_id: 1, _id: -1 });

export interface OwnerModels {
  owners: Model<OwnerDoc>;
  sessions: Model<SessionDoc>;
  signInCounters: Model<SignInCounterDoc>;
  audit: Model<AuditEntryDoc>;
}

export function registerOwnerModels(connection: Connection): OwnerModels {
  return {
    owners: connection.model<OwnerDoc>('Owner', ownerSchema, 'owners'),
    sessions: connection.model<SessionDoc>('Session', sessionSchema, 'sessions'),
    signInCounters: connection.model<SignInCounterDoc>('SignInCounter', counterSchema, 'sign_in_counters'),
    audit: connection.model<AuditEntryDoc>('AuditEntry', auditSchema, 'audit_log'),
  };
}
