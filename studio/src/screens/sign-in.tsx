import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { explainAll } from '../errors';
import { graphql } from '../gql';
import { setSession } from '../session';
import { ErrorNote, Field } from '../ui/bits';

const SignIn = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    login(email: $email, password: $password) { token expiresAt }
  }
`);

export function SignInScreen() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [result, login] = useMutation(SignIn);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await login({ email: email.trim(), password });
    if (r.data) setSession({ token: r.data.login.token, expiresAt: r.data.login.expiresAt, email: email.trim() });
  };
  return (
    <main className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div className="brand">Studio</div>
        <h1 id="sign-in-title">Sign in to your channels</h1>
        <Field label="Email" id="email">
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Password" id="password">
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorNote text={explainAll(result.error)} />
        <button type="submit" className="button primary block" disabled={result.fetching}>{result.fetching ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
