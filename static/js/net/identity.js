// The player's guest identity: a player id and a secret the server issued, kept in this
// browser (storage.js) and presented when taking a seat, so that the seats of every game
// link to the same player (ratings and a player page follow it). No account, no password:
// whoever has the secret is the player, and losing this browser's storage loses it; the
// identity's link (the secret in the URL's fragment, never sent to a server) carries it to
// another device.

import { createPlayer, getPlayer, renamePlayer } from "./api.js";
import { forgetIdentity, loadIdentity, saveIdentity, saveName } from "../browser/storage.js";

const LINK_KEY = "identity";
const LINK_SHAPE = /^([A-Za-z0-9_-]{1,128})\.([A-Za-z0-9_-]{1,128})$/;

let creating = null; // the one creation in flight, shared by everyone who asks meanwhile

/** This browser's identity, made now (named `name`) when it has none; null when the server
 *  cannot make one now (the player then plays as a guest, unlinked: nothing is refused). */
export async function ensureIdentity(name) {
  const kept = loadIdentity();
  if (kept) return kept;
  if (!creating) {
    creating = createPlayer(name)
      .then((made) => {
        const identity = { id: made.player_id, secret: made.secret };
        saveIdentity(identity);
        return identity;
      })
      .catch(() => null)
      .finally(() => { creating = null; });
  }
  return creating;
}

/** Give the identity the name the player just chose (the server keeps one name per
 *  identity). An identity the server does not know (expired, or a bad copy) is forgotten,
 *  so the next seat makes a new one. Resolves true when the server has the name. */
export async function renameIdentity(name) {
  const kept = loadIdentity();
  if (!kept) return false;
  try {
    await renamePlayer(kept.id, kept.secret, name);
    return true;
  } catch (err) {
    if (err.code === "bad_identity") forgetIdentity();
    return false;
  }
}

/** The link that carries this browser's identity to another device (null: none yet). */
export function identityLink(origin) {
  const kept = loadIdentity();
  return kept ? `${origin}/#${LINK_KEY}=${kept.id}.${kept.secret}` : null;
}

/** {id, secret} from a link's fragment (`#identity=ID.SECRET`), or null. */
export function identityFromHash(hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const match = LINK_SHAPE.exec(params.get(LINK_KEY) || "");
  return match ? { id: match[1], secret: match[2] } : null;
}

/** Take over the identity of a link, after checking that the server knows it; its name
 *  becomes this browser's. Resolves to its public view, or throws the ApiError. */
export async function adoptIdentity(identity) {
  const player = await getPlayer(identity.id);
  await renamePlayer(identity.id, identity.secret, player.name); // a wrong secret: 401 here
  saveIdentity(identity);
  saveName(player.name);
  return player;
}
