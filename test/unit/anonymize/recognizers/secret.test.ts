import { describe, expect, it } from 'vitest';
import { secretRecognizer } from '../../../../src/anonymize/recognizers/secret.js';
import { found } from '../helpers.js';

describe('secret recognizer', () => {
  it('finds vendor keys and tokens by shape', () => {
    expect(found(secretRecognizer, 'key sk-proj-Xq81kLmZ29aPvB7tRcN0wYhJ and AKIAIOSFODNN7EXAMPLE')).toEqual([
      'sk-proj-Xq81kLmZ29aPvB7tRcN0wYhJ',
      'AKIAIOSFODNN7EXAMPLE',
    ]);
    expect(found(secretRecognizer, 'Authorization: Bearer abcdefghijklmnop1234')).toEqual(['abcdefghijklmnop1234']);
  });
  it('finds keys that span dots or lines, and keys at the edges of a text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const sendgrid = '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';
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1x2y\n-----END RSA PRIVATE KEY-----';
    expect(found(secretRecognizer, `${jwt} then ${sendgrid}:\n${pem}`)).toEqual([jwt, sendgrid, pem]);
    expect(found(secretRecognizer, 'ghp_16C7e42F292c6912E7710c838347Ae178B4a')).toEqual([
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    ]);
  });
  it('takes a vendor key only as a whole run of key characters', () => {
    expect(
      found(secretRecognizer, 'xAKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE_2 build-sk-proj-Xq81kLmZ29aPvB7tRcN0wYhJ'),
    ).toEqual([]);
  });
  it('redacts only the value after a password or PIN keyword', () => {
    expect(found(secretRecognizer, 'password: Hunter2!x')).toEqual(['Hunter2!x']);
    expect(found(secretRecognizer, 'mi contraseña es Perro2019!')).toEqual(['Perro2019!']);
    expect(found(secretRecognizer, 'PIN 4821')).toEqual(['4821']);
    expect(found(secretRecognizer, 'api_key=abc123XYZ')).toEqual(['abc123XYZ']);
    // Environment variables and config keys: the key follows an underscore or a dot.
    expect(found(secretRecognizer, 'DB_PASSWORD=s3cr3tValue\nREDIS_AUTH_TOKEN: tk_8812aa')).toEqual([
      's3cr3tValue',
      'tk_8812aa',
    ]);
    expect(found(secretRecognizer, 'db.password = Hunter22x')).toEqual(['Hunter22x']);
  });
  it('leaves prose about passwords, masked values and UUIDs', () => {
    expect(
      found(
        secretRecognizer,
        'la contraseña es incorrecta; Password: ******; nunca comparta su PIN; id 3fa85f64-5717-4562-b3fc-2c963f66afa6',
      ),
    ).toEqual([]);
  });
});

describe('secrets without a vendor prefix', () => {
  it('takes hex and base64 tokens after a key word, and leaves hashes named as such', () => {
    expect(
      found(secretRecognizer, 'pasted the service api key 5c0e7a8b9d1f2e3c4b5a69788796a5b4 in the channel'),
    ).toEqual(['5c0e7a8b9d1f2e3c4b5a69788796a5b4']);
    expect(found(secretRecognizer, 'Authorization: token 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567')).toEqual([
      '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
    ]);
    expect(found(secretRecognizer, 'the storage secret key Zq8+Lm2/Xv9kPw4RtY7uIo1aS3dF5gH6jK0lQ2wE')).toEqual([
      'Zq8+Lm2/Xv9kPw4RtY7uIo1aS3dF5gH6jK0lQ2wE',
    ]);
    expect(found(secretRecognizer, 'a 40-char key alone: Zq8+Lm2/Xv9kPw4RtY7uIo1aS3dF5gH6jK0lQ2wE')).toEqual([
      'Zq8+Lm2/Xv9kPw4RtY7uIo1aS3dF5gH6jK0lQ2wE',
    ]);
    expect(
      found(
        secretRecognizer,
        'Do not confuse the token with the build checksum de83b3ca11f736023e3851e32087ba43f945d2a5 or commit 522f0de26b2e0845256e6cb8c308a29b730ce7f9',
      ),
    ).toEqual([]);
    expect(
      found(
        secretRecognizer,
        'la clave va en la cabecera; el request_id 3fa85f64-5717-4562-b3fc-2c963f66afa6 no es secreto',
      ),
    ).toEqual([]);
  });
  it('takes password-shaped words in a sentence about a password, not ordinary words', () => {
    expect(found(secretRecognizer, 'la contraseña es !Tormenta_7CVP (antes tenía *Yz*rQivU!BX)')).toEqual([
      '!Tormenta_7CVP',
      '*Yz*rQivU!BX',
    ]);
    expect(
      found(
        secretRecognizer,
        'la contraseña debe tener 12 caracteres, una mayúscula y un símbolo; Jean-Pierre la cambió el 12/05/2024',
      ),
    ).toEqual([]);
  });
});
