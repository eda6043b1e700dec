/**
 * An independent check of a bank boleto's linha digitável (47 digits), written from the FEBRABAN
 * rules rather than imported from the emulators: fields 1–3 each end in a mod-10 digit, and the
 * general digit (position 33) is the mod-11 of the 43 other barcode digits.
 */
function mod10(digits: string): number {
  const sum = [...digits].reverse().reduce((acc, d, i) => {
    const p = Number(d) * (i % 2 === 0 ? 2 : 1);
    return acc + Math.floor(p / 10) + (p % 10);
  }, 0);
  return (10 - (sum % 10)) % 10;
}

function mod11(digits: string): number {
  const sum = [...digits].reverse().reduce((acc, d, i) => acc + Number(d) * ((i % 8) + 2), 0);
  const dv = 11 - (sum % 11);
  return dv >= 10 || dv === 0 ? 1 : dv;
}

export function boletoLineIsValid(line: string): boolean {
  if (!/^\d{47}$/.test(line)) return false;
  const fields = [line.slice(0, 9), line.slice(10, 20), line.slice(21, 31)];
  const dvs = [line[9], line[20], line[31]].map(Number);
  if (fields.some((field, i) => mod10(field) !== dvs[i])) return false;
  const barcodeWithoutDv = line.slice(0, 4) + line.slice(33) + line.slice(4, 9) + fields[1] + fields[2];
  return mod11(barcodeWithoutDv) === Number(line[32]);
}
