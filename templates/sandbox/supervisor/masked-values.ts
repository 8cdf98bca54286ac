import { LoginValues } from './login-values.js';
import { TypedCodes } from './typed-codes.js';

/**
 * What only the supervisor knows of a run's secrets, and masks itself in every browser result, in the recording's
 * trace and in the live view's text: the TOTP codes it typed (typed-codes.ts) and the values of the saved login its
 * browser holds (login-values.ts). The daemon masks the secrets it sent (the run's SecretMask).
 */
export class MaskedValues {
  readonly codes = new TypedCodes();
  readonly login = new LoginValues();

  text(text: string): string {
    return this.login.text(this.codes.text(text));
  }

  bytes(body: Buffer): Buffer {
    return this.login.bytes(this.codes.bytes(body));
  }
}
