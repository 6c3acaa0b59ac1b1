// Web Push for this browser's identity: the player allows notifications once, and the server
// pushes "your move" and "game over" for the games they are not looking at (docs/protocol.md,
// Web Push). The service worker (/sw.js, scope /) shows them; this module registers it,
// subscribes with the server's VAPID key and hands the subscription to the server.

import { getPushKey, subscribePush, unsubscribePush } from "./api.js";

const WORKER = "/sw.js";
// A browser that cannot reach its push service (offline, a firewall, a vendor's service
// down) never settles subscribe(): past this wait the player is told, not left waiting.
export const SUBSCRIBE_WAIT_MS = 15000;

/** `promise`, or a rejection with `message` after `ms` if it has not settled by then. */
function settleWithin(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Whether this browser can receive pushes at all (a secure origin with the Push API). */
export function pushSupported() {
  return typeof window !== "undefined" && window.isSecureContext === true &&
    "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  return (await navigator.serviceWorker.getRegistration("/")) || null;
}

/** "unsupported", "denied" (the player said no: only the browser's settings undo it), "on"
 *  (this browser is subscribed) or "off". */
export async function pushState() {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const held = await registration();
  const subscription = held ? await held.pushManager.getSubscription() : null;
  return subscription && Notification.permission === "granted" ? "on" : "off";
}

/** Ask for permission, subscribe this browser and give the subscription to the server for
 *  `identity` ({id, secret}). Resolves to the new state; throws the ApiError of the server. */
export async function enablePush(identity) {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  await navigator.serviceWorker.register(WORKER, { scope: "/" });
  const ready = await navigator.serviceWorker.ready;
  const key = await getPushKey();
  let subscription = await ready.pushManager.getSubscription();
  if (subscription) {
    // made against another key (the server's changed): a push service would refuse ours
    const made = subscription.options?.applicationServerKey;
    const same = made && new Uint8Array(made).join() === keyBytes(key).join();
    if (!same) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  if (!subscription) {
    subscription = await settleWithin(
      ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }),
      SUBSCRIBE_WAIT_MS,
      "this browser's push service did not answer (is it offline?)",
    );
  }
  await subscribePush(identity.id, identity.secret, subscription.toJSON());
  return "on";
}

/** Stop the pushes to this browser: the server forgets it, the browser unsubscribes. */
export async function disablePush(identity) {
  const held = await registration();
  const subscription = held ? await held.pushManager.getSubscription() : null;
  if (!subscription) return "off";
  await unsubscribePush(identity.id, identity.secret, subscription.endpoint);
  await subscription.unsubscribe();
  return "off";
}
