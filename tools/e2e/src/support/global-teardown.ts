export default async function globalTeardown(): Promise<void> {
  globalThis.__ORQUESTRA_E2E_TRACES__?.close();
  const child = globalThis.__ORQUESTRA_E2E_STACK__;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
