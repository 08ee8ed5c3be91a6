import { asNetworkError } from './network-error';

export type SignInOutcome = 'signed-in' | 'wrong-token' | 'refused';

/**
 * Posts the token to the server's sign-in form handler, so that it never stands in an address.
 * `same-origin` as the request's referrer policy: under the page's `no-referrer` a browser sends
 * `Origin: null` with a POST, which the server's Origin guard refuses. The redirect is not
 * followed: the session cookie it sets is all the page needs.
 */
export async function postSignIn(token: string): Promise<SignInOutcome> {
  let response: Response;
  try {
    response = await fetch('/sign-in', {
      method: 'POST',
      credentials: 'same-origin',
      referrerPolicy: 'same-origin',
      redirect: 'manual',
      body: new URLSearchParams({ token }),
    });
  } catch (error) {
    throw asNetworkError(error, window.location.origin);
  }
  if (response.type === 'opaqueredirect' || response.ok) return 'signed-in';
  return response.status === 401 ? 'wrong-token' : 'refused';
}
