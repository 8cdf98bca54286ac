/**
 * Twenty varied output_schemas a test-mode run's generated result must satisfy (issue 25): nested objects, arrays,
 * enums, formats, `required`, bounds, patterns, combinations.
 */
export const OUTPUT_SCHEMAS: Record<string, Record<string, unknown>> = {
  'flat required': { type: 'object', required: ['title', 'price'], properties: { title: { type: 'string' }, price: { type: 'number' } } },
  'integer bounds': { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 3, maximum: 7 } } },
  'exclusive bounds and multipleOf': { type: 'object', required: ['ratio', 'step'], properties: { ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, step: { type: 'integer', multipleOf: 5, minimum: 10, maximum: 50 } } },
  'enum and const': { type: 'object', required: ['currency', 'kind'], properties: { currency: { enum: ['EUR', 'USD', 'GBP'] }, kind: { const: 'quote' } } },
  'string lengths': { type: 'object', required: ['code', 'note'], properties: { code: { type: 'string', minLength: 4, maxLength: 4 }, note: { type: 'string', maxLength: 20 } } },
  pattern: { type: 'object', required: ['sku', 'zip'], properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, zip: { type: 'string', pattern: '^\\d{5}$' } } },
  formats: {
    type: 'object',
    required: ['email', 'url', 'when', 'day', 'id', 'ip'],
    properties: { email: { type: 'string', format: 'email' }, url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' }, day: { type: 'string', format: 'date' }, id: { type: 'string', format: 'uuid' }, ip: { type: 'string', format: 'ipv4' } },
  },
  'nested objects': {
    type: 'object',
    required: ['shop'],
    properties: { shop: { type: 'object', required: ['name', 'address'], properties: { name: { type: 'string' }, address: { type: 'object', required: ['city', 'country'], properties: { city: { type: 'string' }, country: { type: 'string', minLength: 2, maxLength: 2 } } } } } },
  },
  'array of objects': {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', minItems: 2, maxItems: 4, items: { type: 'object', required: ['name', 'qty'], properties: { name: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } } } },
  },
  'unique enum array': { type: 'object', required: ['tags'], properties: { tags: { type: 'array', uniqueItems: true, minItems: 1, maxItems: 3, items: { enum: ['red', 'green', 'blue', 'black'] } } } },
  'closed object': { type: 'object', additionalProperties: false, required: ['ok', 'reason'], properties: { ok: { type: 'boolean' }, reason: { type: 'string' } } },
  'nullable member': { type: 'object', required: ['discount', 'price'], properties: { discount: { type: ['number', 'null'] }, price: { type: 'number', minimum: 0 } } },
  'optional members only': { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
  'fixed-length array': { type: 'object', required: ['point'], properties: { point: { type: 'array', items: { type: 'number', minimum: -90, maximum: 90 }, minItems: 2, maxItems: 2 } } },
  'oneOf branches': {
    type: 'object',
    required: ['payment'],
    properties: { payment: { oneOf: [{ type: 'object', required: ['card'], properties: { card: { type: 'string', pattern: '^\\d{4}$' } }, additionalProperties: false }, { type: 'object', required: ['iban'], properties: { iban: { type: 'string', minLength: 15, maxLength: 34 } }, additionalProperties: false }] } },
  },
  'anyOf types': { type: 'object', required: ['value'], properties: { value: { anyOf: [{ type: 'integer', minimum: 100 }, { type: 'string', enum: ['n/a'] }] } } },
  'allOf merge': { type: 'object', allOf: [{ required: ['a'], properties: { a: { type: 'string' } } }, { required: ['b'], properties: { b: { type: 'integer', minimum: 0, maximum: 9 } } }] },
  'local $ref': {
    type: 'object',
    $defs: { money: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'number', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } } } },
    required: ['total', 'tax'],
    properties: { total: { $ref: '#/$defs/money' }, tax: { $ref: '#/$defs/money' } },
  },
  'nested arrays': { type: 'object', required: ['grid'], properties: { grid: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'integer', minimum: -5, maximum: 5 } } } } },
  'deep mix': {
    type: 'object',
    required: ['flights'],
    properties: {
      flights: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['number', 'departs', 'legs', 'status'],
          properties: {
            number: { type: 'string', pattern: '^[A-Z]{2}\\d{3,4}$' },
            departs: { type: 'string', format: 'date-time' },
            status: { enum: ['on_time', 'delayed', 'cancelled'] },
            legs: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string', minLength: 3, maxLength: 3 }, to: { type: 'string', minLength: 3, maxLength: 3 } } } },
          },
        },
      },
    },
  },
};
