import { Chat } from './chat';

// The page is static; the chat in it talks to /api/chat from the browser.
export default function Page() {
  return (
    <main>
      <h1>Skein chat</h1>
      <p>
        Sign in with a demo token (<code>ada-token</code> or <code>bob-token</code>), then write.
        &ldquo;pay 5&rdquo; asks for a payment you approve or deny.
      </p>
      <Chat />
    </main>
  );
}
