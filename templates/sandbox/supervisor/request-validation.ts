import type {
  BrowserRequest,
  CodeLanguage,
  ElementTarget,
  ExecRequest,
  KeyModifier,
  LiveInput,
  MouseButton,
  OutputLimits,
  PointerTarget,
  ProxyRequest,
  RecordingFinishRequest,
  ScrollDirection,
  TotpAlgorithm,
  TotpSeed,
} from '../../../src/sandbox/protocol.js';
import { isPlainName } from './input-files.js';

/** The request body did not match the protocol; answered with 400. */
export class BadRequest extends Error {}

const LANGUAGES: readonly CodeLanguage[] = ['bash', 'python', 'node'];
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export function parseExecRequest(body: unknown): ExecRequest {
  const value = asObject(body);
  if (!LANGUAGES.includes(value.language as CodeLanguage)) throw new BadRequest(`language must be one of ${LANGUAGES.join(', ')}`);
  if (typeof value.code !== 'string') throw new BadRequest('code must be a string');
  const timeoutMs = value.timeoutMs;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new BadRequest(`timeoutMs must be an integer between 1 and ${MAX_TIMEOUT_MS}`);
  }
  return { language: value.language as CodeLanguage, code: value.code, timeoutMs };
}

export function parseBrowserAction(body: unknown): BrowserRequest {
  const value = asObject(body);
  const hold = value.holdSubmit;
  if (hold !== undefined && hold !== true) throw new BadRequest('holdSubmit is true or absent');
  if (hold === true && !['click', 'type', 'press', 'type_text'].includes(value.action as string)) throw new BadRequest('holdSubmit comes only with click, type, press and type_text');
  const action = parseAction(value);
  return hold === true ? { ...action, holdSubmit: true } : action;
}

const BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle'];
const MODIFIERS: readonly KeyModifier[] = ['Alt', 'Control', 'Meta', 'Shift'];
const DIRECTIONS: readonly ScrollDirection[] = ['up', 'down', 'left', 'right'];
const MAX_WAIT_S = 30;
const MAX_VALUES = 100;
const MAX_REF = 32;

function parseAction(value: Record<string, unknown>): BrowserRequest {
  const typed = value.action === 'type' || value.action === 'type_text';
  if (value.secrets !== undefined && !typed) throw new BadRequest('secrets come only with a type or type_text action');
  if (value.totp !== undefined && !typed) throw new BadRequest('totp comes only with a type or type_text action');
  switch (value.action) {
    case 'navigate': {
      const url = requireString(value, 'url');
      if (!/^https?:\/\//i.test(url)) throw new BadRequest('url must be http or https');
      return { action: 'navigate', url };
    }
    case 'back':
    case 'forward':
    case 'reload':
      return { action: value.action };
    case 'screenshot': {
      if (value.size === undefined) return { action: 'screenshot' };
      const size = asObject(value.size);
      return { action: 'screenshot', size: { width: integer(size, 'width', 1, MAX_COORDINATE), height: integer(size, 'height', 1, MAX_COORDINATE) } };
    }
    case 'click': {
      const button = value.button === undefined ? undefined : oneOf(value, 'button', BUTTONS);
      const clickCount = value.clickCount === undefined ? undefined : (integer(value, 'clickCount', 1, 3) as 1 | 2 | 3);
      const modifiers = value.modifiers === undefined ? undefined : listOf(value, 'modifiers', MODIFIERS);
      return { action: 'click', ...pointerTarget(value), ...(button === undefined ? {} : { button }), ...(clickCount === undefined ? {} : { clickCount }), ...(modifiers === undefined ? {} : { modifiers }) };
    }
    case 'hover':
      return { action: 'hover', ...pointerTarget(value) };
    case 'type': {
      const submit = value.submit;
      if (submit !== undefined && typeof submit !== 'boolean') throw new BadRequest('submit must be a boolean');
      const secrets = value.secrets === undefined ? undefined : stringMap(value.secrets, 'secrets');
      const totp = value.totp === undefined ? undefined : totpSeeds(value.totp);
      return {
        action: 'type',
        ...elementTarget(value),
        text: requireString(value, 'text'),
        ...(submit === undefined ? {} : { submit }),
        ...(secrets === undefined ? {} : { secrets }),
        ...(totp === undefined ? {} : { totp }),
      };
    }
    case 'select': {
      const values = value.values;
      if (!Array.isArray(values) || values.length === 0 || values.length > MAX_VALUES || values.some((v) => typeof v !== 'string')) {
        throw new BadRequest(`values must be a list of 1 to ${MAX_VALUES} strings`);
      }
      return { action: 'select', ...elementTarget(value), values: values as string[] };
    }
    case 'press': {
      const holdSeconds = value.holdSeconds === undefined ? undefined : boundedNumber(value, 'holdSeconds', 0, MAX_WAIT_S);
      return { action: 'press', key: requireString(value, 'key'), ...(holdSeconds === undefined ? {} : { holdSeconds }) };
    }
    case 'drag': {
      const via = value.via;
      if (via !== undefined && (!Array.isArray(via) || via.length > MAX_VALUES)) throw new BadRequest(`via must be a list of at most ${MAX_VALUES} points`);
      const modifiers = value.modifiers === undefined ? undefined : listOf(value, 'modifiers', MODIFIERS);
      return {
        action: 'drag',
        ...pointerTarget(value),
        to: pointerTarget(asObject(value.to)),
        ...(via === undefined ? {} : { via: via.map((point: unknown) => viewportPoint(asObject(point))) }),
        ...(modifiers === undefined ? {} : { modifiers }),
      };
    }
    case 'type_text': {
      const secrets = value.secrets === undefined ? undefined : stringMap(value.secrets, 'secrets');
      const totp = value.totp === undefined ? undefined : totpSeeds(value.totp);
      return { action: 'type_text', text: boundedString(value, 'text', MAX_TEXT), ...(secrets === undefined ? {} : { secrets }), ...(totp === undefined ? {} : { totp }) };
    }
    case 'mouse_down':
    case 'mouse_up':
      return { action: value.action, ...(value.at === undefined ? {} : { at: viewportPoint(asObject(value.at)) }) };
    case 'upload': {
      const files = value.files;
      if (!Array.isArray(files) || files.length > 100 || files.some((f) => typeof f !== 'string' || !isPlainName(f))) {
        throw new BadRequest('files must be a list of input file names');
      }
      return { action: 'upload', ...elementTarget(value), files: files as string[] };
    }
    case 'scroll': {
      if (value.toText !== undefined) return { action: 'scroll', toText: requireString(value, 'toText') };
      const direction = oneOf(value, 'direction', DIRECTIONS);
      const amount = value.amount;
      if (amount !== undefined && (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0)) {
        throw new BadRequest('amount must be a positive number');
      }
      const at = value.at === undefined ? undefined : pointerTarget(asObject(value.at));
      return { action: 'scroll', direction, ...(amount === undefined ? {} : { amount }), ...(at === undefined ? {} : { at }) };
    }
    case 'wait': {
      const seconds = value.seconds === undefined ? undefined : boundedNumber(value, 'seconds', 0, MAX_WAIT_S);
      if (value.text === undefined) {
        if (seconds === undefined) throw new BadRequest('wait needs a text or seconds');
        return { action: 'wait', seconds };
      }
      const gone = value.gone;
      if (gone !== undefined && typeof gone !== 'boolean') throw new BadRequest('gone must be a boolean');
      return { action: 'wait', text: requireString(value, 'text'), ...(gone === undefined ? {} : { gone }), ...(seconds === undefined ? {} : { seconds }) };
    }
    case 'dialog': {
      if (typeof value.accept !== 'boolean') throw new BadRequest('accept must be a boolean');
      const text = optionalString(value, 'text');
      return { action: 'dialog', accept: value.accept, ...(text === undefined ? {} : { text }) };
    }
    case 'tab': {
      const close = value.close;
      if (close !== undefined && typeof close !== 'boolean') throw new BadRequest('close must be a boolean');
      return { action: 'tab', index: integer(value, 'index', 0, 1000), ...(close === undefined ? {} : { close }) };
    }
    case 'read_text': {
      const offset = value.offset === undefined ? undefined : integer(value, 'offset', 0, Number.MAX_SAFE_INTEGER);
      return { action: 'read_text', ...(offset === undefined ? {} : { offset }) };
    }
    case 'snapshot': {
      const ref = value.ref === undefined ? undefined : reference(value, 'ref');
      return { action: 'snapshot', ...(ref === undefined ? {} : { ref }) };
    }
    default:
      throw new BadRequest('unknown browser action');
  }
}

/** Exactly one of ref, selector and text. */
function elementTarget(value: Record<string, unknown>): ElementTarget {
  const given = (['ref', 'selector', 'text'] as const).filter((key) => value[key] !== undefined);
  const only = given.filter((key) => key !== 'text' || value.action !== 'type');
  if (only.length !== 1) throw new BadRequest('give exactly one of ref, selector and text');
  const key = only[0]!;
  if (key === 'ref') return { ref: reference(value, 'ref') };
  return key === 'selector' ? { selector: requireString(value, 'selector') } : { text: requireString(value, 'text') };
}

/** An element, or a point x, y of the viewport. */
function pointerTarget(value: Record<string, unknown>): PointerTarget {
  if (value.x === undefined && value.y === undefined) return elementTarget(value);
  if (['ref', 'selector', 'text'].some((key) => value[key] !== undefined)) throw new BadRequest('give an element (ref, selector or text) or a point (x, y), not both');
  return { x: coordinate(value, 'x'), y: coordinate(value, 'y') };
}

function viewportPoint(value: Record<string, unknown>): { x: number; y: number } {
  return { x: coordinate(value, 'x'), y: coordinate(value, 'y') };
}

function reference(value: Record<string, unknown>, key: string): string {
  const ref = requireString(value, key);
  if (!/^[a-z0-9]+$/.test(ref) || ref.length > MAX_REF) throw new BadRequest(`${key} must be a reference from a snapshot, such as e12`);
  return ref;
}

function listOf<T extends string>(value: Record<string, unknown>, key: string, allowed: readonly T[]): T[] {
  const field = value[key];
  if (!Array.isArray(field) || field.some((item) => !allowed.includes(item as T))) throw new BadRequest(`${key} must be a list of ${allowed.join(', ')}`);
  return [...new Set(field as T[])];
}

function boundedNumber(value: Record<string, unknown>, key: string, min: number, max: number): number {
  const field = value[key];
  if (typeof field !== 'number' || !Number.isFinite(field) || field < min || field > max) throw new BadRequest(`${key} must be a number from ${min} to ${max}`);
  return field;
}

/** A run's secrets come to a few dozen forms each; the cap keeps one request from making the masking quadratic. */
const MAX_MASK_FORMS = 10_000;

export function parseBrowserWarm(body: unknown): void {
  if (Object.keys(asObject(body)).length > 0) throw new BadRequest('browser/warm takes an empty object');
}

export function parseProxyRequest(body: unknown): ProxyRequest {
  const value = asObject(body);
  const server = requireString(value, 'server');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new BadRequest('server must be a URL');
  }
  if (!['http:', 'https:', 'socks5:'].includes(url.protocol)) throw new BadRequest('server must be http, https or socks5');
  if (url.username !== '' || url.password !== '') throw new BadRequest('server is scheme://host:port, without credentials');
  const username = optionalString(value, 'username');
  const password = optionalString(value, 'password');
  if (password !== undefined && username === undefined) throw new BadRequest('password comes only with username');
  return {
    server,
    label: requireString(value, 'label'),
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
}

export function parseRecordingStart(body: unknown): void {
  if (Object.keys(asObject(body)).length > 0) throw new BadRequest('recording/start takes an empty object');
}

export function parseRecordingFinish(body: unknown): RecordingFinishRequest {
  const { mask, ...rest } = asObject(body);
  if (Object.keys(rest).length > 0) throw new BadRequest(`unknown member ${Object.keys(rest)[0]}`);
  if (!Array.isArray(mask) || mask.length > MAX_MASK_FORMS) throw new BadRequest(`mask must be an array of at most ${MAX_MASK_FORMS} forms`);
  return {
    mask: mask.map((item: unknown) => {
      const value = asObject(item);
      const form = requireString(value, 'form');
      if (form === '') throw new BadRequest('a mask form must not be empty');
      return { form, label: requireString(value, 'label') };
    }),
  };
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function stringMap(value: unknown, key: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest(`${key} must be an object of strings`);
  for (const v of Object.values(value)) if (typeof v !== 'string') throw new BadRequest(`${key} must be an object of strings`);
  return value as Record<string, string>;
}

const TOTP_ALGORITHMS: readonly TotpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512'];

/** Seeds by connection name, each as src/connections/totp/totp-seed.ts makes them (errors never repeat a seed). */
function totpSeeds(value: unknown): Record<string, TotpSeed> {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) throw new BadRequest('totp must be an object of seeds by name');
  const out: Record<string, TotpSeed> = {};
  for (const [name, seed] of Object.entries(value)) {
    if (!isObject(seed)) throw new BadRequest(`totp.${name} must be a seed object`);
    const secret = seed.secret;
    if (typeof secret !== 'string' || !/^[A-Z2-7]{16,}$/.test(secret)) throw new BadRequest(`totp.${name}.secret must be base32, at least 16 characters`);
    if (!TOTP_ALGORITHMS.includes(seed.algorithm as TotpAlgorithm)) throw new BadRequest(`totp.${name}.algorithm must be one of ${TOTP_ALGORITHMS.join(', ')}`);
    out[name] = { secret, digits: integer(seed, 'digits', 6, 8), period: integer(seed, 'period', 1, 3600), algorithm: seed.algorithm as TotpAlgorithm };
  }
  return out;
}

function requireString(value: Record<string, unknown>, key: string): string {
  const field = value[key];
  if (typeof field !== 'string') throw new BadRequest(`${key} must be a string`);
  return field;
}

function optionalString(value: Record<string, unknown>, key: string): string | undefined {
  return value[key] === undefined ? undefined : requireString(value, key);
}

const MOUSE_EVENTS = ['mousePressed', 'mouseReleased', 'mouseMoved'] as const;
const MOUSE_BUTTONS = ['none', 'left', 'middle', 'right'] as const;
const KEY_EVENTS = ['keyDown', 'keyUp'] as const;
/** Far beyond any viewport, so that a coordinate is either on the page or a mistake. */
const MAX_COORDINATE = 100_000;
const MAX_TEXT = 10_000;

export function parseLiveInput(body: unknown): LiveInput {
  const value = asObject(body);
  switch (value.type) {
    case 'mouse':
      return {
        type: 'mouse',
        event: oneOf(value, 'event', MOUSE_EVENTS),
        x: coordinate(value, 'x'),
        y: coordinate(value, 'y'),
        button: oneOf(value, 'button', MOUSE_BUTTONS),
        clickCount: integer(value, 'clickCount', 0, 3),
        modifiers: integer(value, 'modifiers', 0, 15),
      };
    case 'wheel':
      return {
        type: 'wheel',
        x: coordinate(value, 'x'),
        y: coordinate(value, 'y'),
        deltaX: delta(value, 'deltaX'),
        deltaY: delta(value, 'deltaY'),
        modifiers: integer(value, 'modifiers', 0, 15),
      };
    case 'key':
      return {
        type: 'key',
        event: oneOf(value, 'event', KEY_EVENTS),
        key: boundedString(value, 'key', 64),
        code: boundedString(value, 'code', 64),
        keyCode: integer(value, 'keyCode', 0, 255),
        text: boundedString(value, 'text', 8),
        modifiers: integer(value, 'modifiers', 0, 15),
      };
    case 'text':
      return { type: 'text', text: boundedString(value, 'text', MAX_TEXT) };
    case 'tab':
      return { type: 'tab', index: integer(value, 'index', 0, 1000) };
    default:
      throw new BadRequest('type must be mouse, wheel, key, text or tab');
  }
}

function oneOf<T extends string>(value: Record<string, unknown>, key: string, allowed: readonly T[]): T {
  const field = value[key];
  if (!allowed.includes(field as T)) throw new BadRequest(`${key} must be one of ${allowed.join(', ')}`);
  return field as T;
}

function integer(value: Record<string, unknown>, key: string, min: number, max: number): number {
  const field = value[key];
  if (typeof field !== 'number' || !Number.isInteger(field) || field < min || field > max) throw new BadRequest(`${key} must be an integer from ${min} to ${max}`);
  return field;
}

function coordinate(value: Record<string, unknown>, key: string): number {
  const field = value[key];
  if (typeof field !== 'number' || !Number.isFinite(field) || field < 0 || field > MAX_COORDINATE) throw new BadRequest(`${key} must be a number from 0 to ${MAX_COORDINATE}`);
  return field;
}

function delta(value: Record<string, unknown>, key: string): number {
  const field = value[key];
  if (typeof field !== 'number' || !Number.isFinite(field) || Math.abs(field) > MAX_COORDINATE) throw new BadRequest(`${key} must be a number of at most ${MAX_COORDINATE} either way`);
  return field;
}

function boundedString(value: Record<string, unknown>, key: string, max: number): string {
  const field = requireString(value, key);
  if (field.length > max) throw new BadRequest(`${key} must be at most ${max} characters`);
  return field;
}

export function parseOutputLimits(body: unknown): OutputLimits {
  const value = asObject(body);
  for (const key of ['maxCount', 'maxBytes'] as const) {
    const n = value[key];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new BadRequest(`${key} must be a positive integer`);
  }
  return { maxCount: value.maxCount as number, maxBytes: value.maxBytes as number };
}
