import type { BillCheck } from '../../../workflows/bills/extraction';

/**
 * The checks a bill went through, in the order they ran, and the reasons it goes to a person:
 * every failed check is a reason ("name: detail"), and a step may add a reason of its own.
 */
export class CheckLog {
  readonly checks: BillCheck[] = [];
  readonly reasons: string[] = [];

  check(name: BillCheck['name'], status: BillCheck['status'], detail: string): void {
    this.checks.push({ name, status, detail });
    if (status === 'fail') this.reasons.push(`${name}: ${detail}`);
  }

  refuse(reason: string): void {
    this.reasons.push(reason);
  }
}
