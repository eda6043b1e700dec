import { InvalidArgumentError } from 'commander';

/** An option's integer argument within [min, max]. */
export function parseInteger(name: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} espera um número inteiro.`);
    const parsed = Number(value);
    if (parsed < min || parsed > max) throw new InvalidArgumentError(`${name} deve estar entre ${min} e ${max}.`);
    return parsed;
  };
}

/** A repeatable `key=value` option, collected into an object. */
export function parseKeyValue(value: string, previous: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`use chave=valor (recebido: ${value}).`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** A comma-separated list (`--events payment.succeeded,refund.*`). */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
