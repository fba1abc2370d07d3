import { AppError, type ErrorDetails } from '#src/errors.ts';

/** Collects field messages and throws one INVALID_PAYLOAD with all of them. */
export class Problems {
  readonly details: ErrorDetails = {};
  add(field: string, message: string): void {
    this.details[field] = [...(this.details[field] ?? []), message];
  }
  throwIfAny(message = 'The request is invalid.'): void {
    if (Object.keys(this.details).length > 0) throw new AppError('INVALID_PAYLOAD', message, this.details);
  }
}

export function optionalDate(p: Problems, field: string, value: unknown): Date | null {
  if (value === undefined || value === null) return null;
  const t = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(t)) {
    p.add(field, 'must be an ISO 8601 date-time');
    return null;
  }
  return new Date(t);
}

export function text(p: Problems, field: string, value: unknown, min: number, max: number): string {
  if (typeof value !== 'string' || value.trim().length < min || value.length > max) {
    p.add(field, `must be a string of ${min} to ${max} characters`);
    return '';
  }
  return value.trim();
}
