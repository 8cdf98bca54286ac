/** A run's input file could not be placed in its sandbox: its bytes are gone from the data directory (issue 23). */
export class InputFilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFilesError';
  }
}
