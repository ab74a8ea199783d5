import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  PasskeyAuthenticationCredential,
  PasskeyCreationOptions,
  PasskeyRegistrationCredential,
  PasskeyRequestOptions,
} from '@fieldlink/api/passkeys';

/** Flags of authenticator data (WebAuthn §6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

interface StoredCredential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/**
 * A software passkey authenticator for the API tests (as a browser's virtual authenticator): real
 * P-256 keys from node:crypto, real `none` attestations and ES256 assertions, so the server's
 * WebAuthn library verifies them as it would a phone's. Discoverable credentials, user verification
 * reported, a signature counter that counts.
 */
export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(
    /** The origin the "browser" is at: the client data carries it. */
    private readonly origin: string,
    private readonly options: { userVerified?: boolean; counts?: boolean } = {},
  ) {}

  /** What `startRegistration` answers for these options: a new credential on this authenticator. */
  register(options: PasskeyCreationOptions): PasskeyRegistrationCredential {
    const rpId = options.rp.id!;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credential: StoredCredential = {
      id: randomBytes(16),
      rpId,
      userHandle: options.user.id,
      privateKey,
      counter: 0,
    };
    this.credentials.push(credential);
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.authenticatorData(credential, AT),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** What `startAuthentication` answers: an assertion of `credential` (this authenticator's first by default). */
  assert(options: PasskeyRequestOptions, credential = this.credentials[0]!): PasskeyAuthenticationCredential {
    credential.counter += this.options.counts === false ? 0 : 1;
    const authData = this.authenticatorData(credential, 0);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), {
      key: credential.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }

  private authenticatorData(credential: StoredCredential, extraFlags: number): Buffer {
    const flags = UP | (this.options.userVerified === false ? 0 : UV) | extraFlags;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    return Buffer.concat([sha256(credential.rpId), Buffer.from([flags]), counter]);
  }

  private clientData(type: string, challenge: string): string {
    return b64url(Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })));
  }
}
