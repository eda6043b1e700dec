import { startTelemetry } from '@orquestra/platform/telemetry';

// Loaded first by main.ts: instrumentation must patch modules before they are required.
startTelemetry('tracking');
