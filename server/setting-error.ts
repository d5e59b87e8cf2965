/**
 * A setting the service cannot start with, found while starting (a PKCS#11 module that does not
 * load, a wrong PIN, a token that is not there): the message names the setting and says what to do,
 * and is printed on its own, without a stack trace.
 */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}
