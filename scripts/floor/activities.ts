/** The floor's activity: returns its input — no I/O, so only Temporal's own cost is measured. */
export async function floorStep(input: string): Promise<string> {
  return Promise.resolve(input);
}
