import { Ajv, type Options } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export can arrive wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/** Every Ajv of the product is made here, so all of them know the same formats (uri, date-time, email, ...). */
export function createAjv(options: Options): Ajv {
  const ajv = new Ajv(options);
  addFormats(ajv);
  return ajv;
}
