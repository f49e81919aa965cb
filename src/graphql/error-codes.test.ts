import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError } from 'graphql';
import { DomainError } from '../domain/errors';
import { APOLLO_CODES, formatError } from './error-codes';

const as = (code: string | undefined, error: unknown) => formatError({ message: 'm', extensions: code ? { code } : {} }, error);

describe('the studio error codes (one vocabulary)', () => {
  it("translates each of Apollo Server's codes into a lower snake case code", () => {
    for (const code of Object.values(ApolloServerErrorCode)) {
      const wire = as(code, new GraphQLError('m', { extensions: { code } })).extensions?.code;
      expect([code, wire]).toEqual([code, APOLLO_CODES[code]]);
      expect(wire).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });

  it('names HTTP-level refusals by their status, and calls an uncoded 4xx a bad request', () => {
    const badRequest = (status: number) => new GraphQLError('m', { extensions: { code: 'BAD_REQUEST', http: { status } } });
    expect(as('BAD_REQUEST', badRequest(405)).extensions?.code).toBe('method_not_allowed');
    expect(as('BAD_REQUEST', badRequest(406)).extensions?.code).toBe('not_acceptable');
    expect(as('BAD_REQUEST', badRequest(400)).extensions?.code).toBe('bad_request');
    expect(as(undefined, new GraphQLError('provided sha does not match query', { extensions: { http: { status: 400 } } })).extensions?.code).toBe(
      'bad_request',
    );
  });

  it('calls an operation graphql-js refuses to run an invalid query, and anything a resolver throws unexpectedly internal, without its message', () => {
    expect(as(undefined, new GraphQLError('Schema is not configured to execute subscription operation.'))).toMatchObject({
      extensions: { code: 'invalid_query' },
    });
    const crash = new GraphQLError('relation "x" does not exist', { originalError: new Error('relation "x" does not exist'), path: ['viewer'] });
    expect(as('INTERNAL_SERVER_ERROR', crash)).toEqual({ message: 'an internal error occurred', path: undefined, extensions: { code: 'internal' } });
  });

  it('keeps a code of its own that a resolver put on a GraphQLError (with an HTTP status)', () => {
    const limited = new GraphQLError('retry in 3 s', { extensions: { code: 'rate_limited', http: { status: 429 } } });
    expect(as('rate_limited', limited).extensions?.code).toBe('rate_limited');
  });

  it("keeps a domain error's own code and message", () => {
    const err = new GraphQLError('x', { originalError: new DomainError('no_live_slot', 'all 3 live slots are in use'), path: ['goLive'] });
    expect(formatError({ message: 'x', path: ['goLive'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }, err)).toEqual({
      message: 'all 3 live slots are in use',
      path: ['goLive'],
      locations: undefined,
      extensions: { code: 'no_live_slot' },
    });
  });
});
