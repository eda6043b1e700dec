import type { Mode, PageParams } from './common.types';

export interface CustomerRecord {
  id: string;
  object: 'customer';
  name: string;
  email: string | null;
  /** Digits only. */
  document: string;
  phone: string | null;
  mode: Mode;
  created_at: string;
  updated_at: string;
}

export interface ListCustomersParams extends PageParams {
  document?: string;
  email?: string;
}
