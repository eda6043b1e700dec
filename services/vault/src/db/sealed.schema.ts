import type { SealedSecret } from '@orquestra/platform';
import { Schema } from 'mongoose';

/** A SecretBox-sealed value (AES-256-GCM, with the id of the key that sealed it). */
export const sealedSchema = new Schema<SealedSecret>(
  {
    key_id: { type: String, required: true },
    iv: { type: String, required: true },
    tag: { type: String, required: true },
    data: { type: String, required: true },
  },
  { _id: false },
);
