import { createEmulatorLogger as create, type Logger } from '../../kit';

export type { Logger };

export function createEmulatorLogger(level = 'info'): Logger {
  return create('woovi-emulator', level);
}
