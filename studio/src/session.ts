/**
 * The signed-in session: the token `login` returned, kept in this browser's localStorage until
 * sign-out or expiry (12 hours). Everything that needs it subscribes here.
 */
export interface Session {
  token: string;
  expiresAt: string;
  email: string;
}

const KEY = 'studio.session';
const listeners = new Set<() => void>();
let current: Session | null = read();

function read(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    return s && Date.parse(s.expiresAt) > Date.now() ? s : null;
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  if (current && Date.parse(current.expiresAt) <= Date.now()) setSession(null);
  return current;
}

export function setSession(next: Session | null): void {
  current = next;
  if (next) localStorage.setItem(KEY, JSON.stringify(next));
  else localStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// another tab signed in or out
window.addEventListener('storage', (e) => {
  if (e.key !== KEY) return;
  current = read();
  listeners.forEach((l) => l());
});
