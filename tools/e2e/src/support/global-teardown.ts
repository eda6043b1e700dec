export default async function globalTeardown(): Promise<void> {
  await globalThis.__ORQUESTRA_E2E_STACK__?.stop();
}
