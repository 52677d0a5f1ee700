// TODO(#4): replaced by the real page.
export function SignInPage() {
  return null;
}
