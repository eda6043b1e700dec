import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface StackInfo {
  baseUrl: string;
  efiControlUrl: string;
  testKey: string;
  restrictedTestKey: string;
  liveKey: string;
  merchantId: string;
  testProviderAccountId: string;
  liveProviderAccountId: string;
  emulatorClientId: string;
}

export const STACK_INFO_FILE = path.resolve(__dirname, '../../../../.local/e2e/stack-info.json');

/** What global-setup started, read by every suite. */
export function stackInfo(): StackInfo {
  return JSON.parse(readFileSync(STACK_INFO_FILE, 'utf8')) as StackInfo;
}
