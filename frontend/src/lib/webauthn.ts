// WebAuthn's options and credentials as JSON: the server (webauthn-rs) sends the options with binary fields
// in base64url, and reads the browser's credential back the same way. These turn one into the other around
// navigator.credentials.create() and .get().

type Json = Record<string, unknown>;

export function fromBase64Url(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
}

export function toBase64Url(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const withIds = (list: unknown): PublicKeyCredentialDescriptor[] | undefined =>
  Array.isArray(list) ? list.map((entry: Json) => ({ ...entry, id: fromBase64Url(String(entry.id)) }) as PublicKeyCredentialDescriptor) : undefined;

/** The server's `{publicKey: ...}` for navigator.credentials.create(). */
export function creationOptions(options: Json): CredentialCreationOptions {
  const publicKey = options.publicKey as Json;
  const user = publicKey.user as Json;
  return {
    publicKey: {
      ...publicKey,
      challenge: fromBase64Url(String(publicKey.challenge)),
      user: { ...user, id: fromBase64Url(String(user.id)) },
      excludeCredentials: withIds(publicKey.excludeCredentials),
    } as PublicKeyCredentialCreationOptions,
  };
}

/** The server's `{publicKey: ...}` for navigator.credentials.get(). */
export function requestOptions(options: Json): CredentialRequestOptions {
  const publicKey = options.publicKey as Json;
  return {
    publicKey: {
      ...publicKey,
      challenge: fromBase64Url(String(publicKey.challenge)),
      allowCredentials: withIds(publicKey.allowCredentials),
    } as PublicKeyCredentialRequestOptions,
  };
}

/** A new credential (create()) or a signature (get()) as the server reads it. */
export function credentialJson(credential: PublicKeyCredential): Json {
  const response = credential.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const fields: Json = { clientDataJSON: toBase64Url(response.clientDataJSON) };
  if ('attestationObject' in response && response.attestationObject) {
    fields.attestationObject = toBase64Url(response.attestationObject);
  }
  if ('authenticatorData' in response && response.authenticatorData) {
    fields.authenticatorData = toBase64Url(response.authenticatorData);
    fields.signature = toBase64Url(response.signature);
    if (response.userHandle) fields.userHandle = toBase64Url(response.userHandle);
  }
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: credential.type,
    response: fields,
    extensions: credential.getClientExtensionResults?.() ?? {},
  };
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}
