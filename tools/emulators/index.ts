// What tests elsewhere may use from the emulators (contract tests run adapters against them).
// Production code never imports this: lint allows it only from *.spec.ts files.
export { createEfiEmulator, type EfiEmulator } from './efi/src/efi-emulator';
export { createAsaasEmulator, type AsaasEmulator } from './asaas/src/asaas-emulator';
export { createMercadoPagoEmulator, type MercadoPagoEmulator } from './mercadopago/src/mercadopago-emulator';
export { createPagarmeEmulator, type PagarmeEmulator } from './pagarme/src/pagarme-emulator';
export { createStripeEmulator, type StripeEmulator } from './stripe/src/stripe-emulator';
export { createWooviEmulator, type WooviEmulator } from './woovi/src/woovi-emulator';
export { createUtmifyEmulator, type UtmifyEmulator } from './utmify/src/utmify-emulator';
export { createMetaEmulator, type MetaEmulator } from './meta/src/meta-emulator';
export { createTiktokEmulator, type TiktokEmulator } from './tiktok/src/tiktok-emulator';
export type { ReceivedRequest, AdFault } from './kit/ad-tool-emulator';
export { generateTestCerts, type TestCerts } from './testing/test-certs';
export { isValidDigitableLine, newBoleto } from './kit/boleto-line';
