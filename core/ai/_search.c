/* The solver's searches in C: the twins of core/ai/value_search.py, core/ai/distance_search.py
 * and their tables (core/ai/table.py).
 *
 * The same negamax with alpha-beta on the three values -1, 0, 1 over bitboards of at most
 * 64 bits (core/ai/bitboard.py's layout: a position is (me, mask)), the same yes/no probes
 * of the distance to the end, the same shortcuts, the same move order and the same two-slot
 * transposition tables (same prime bucket counts, same slot choice, same replacement), so
 * it visits the very same trees as the pure searches: same values, distances, best moves
 * and node counts. core/ai/speedups.py builds it for a solver
 * when this module imports and the board fits 64 bits, else the solver runs the pure twin.
 *
 * The search runs without the GIL; every `countdown` nodes it takes the GIL back to call
 * the solver's check_clock() (progress, the budget: OutOfBudget unwinds the search).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BITS 64
#define MAX_SHIFTS 16
#define MAX_SYMS 48
#define SYMMETRY_PLIES 8  /* value_search.SYMMETRY_PLIES */
#define ORDER_EMPTY 8     /* value_search.ORDER_EMPTY */
#define EVALUATE_MAX_MOVES 48 /* ordering.EVALUATE_MAX_MOVES */
#define ERROR_SCORE (-100) /* a Python exception is set: unwind */

typedef uint64_t u64;
typedef unsigned __int128 u128;

typedef struct {
    u64 me, mask;
    uint8_t used, work, move, bounds; /* move: bit index + 1 (0: none); bounds as in Python */
} Slot;

typedef struct { /* the distance search's entry: (most plies proved false, fewest proved true) */
    u64 me, mask;
    uint8_t used, work, kind;
    int8_t no, yes; /* -1 and NO_PLIES: nothing proved */
} DistanceSlot;

#define NO_PLIES 127 /* distance_search's 1 << 30: more plies than any board has */

typedef struct {
    PyObject_HEAD
    int bits, k, gravity, misere, nshifts, norder, nsyms;
    u64 board, bottom;
    int shifts[MAX_SHIFTS];
    int order[MAX_BITS];     /* bit indices, the fixed order */
    int rank[MAX_BITS];      /* per bit index: len(order) - its place */
    int8_t perm[MAX_SYMS][MAX_BITS];    /* per symmetry: the image bit of each board bit */
    int8_t inverse[MAX_SYMS][MAX_BITS]; /* per symmetry: its inverse */
    u64 buckets, pow_bits; /* a prime; 2**bits mod buckets */
    Slot *slots; /* calloc'ed: pages are taken (and zeroed) as the search first reaches them */
    Py_ssize_t filled;
    u64 distance_buckets, distance_pow; /* a prime; 2**(bits + 1) mod it */
    DistanceSlot *distance_slots;
    PyObject *host; /* the solver: countdown, check_clock() */
    long countdown;
    PyThreadState *released;
    int busy;
} Search;

/* -- line tests (bitboard.py's _winning_cells and _has_line) ------------------------- */

static inline u64 shl(u64 x, int n) { return n >= 64 ? 0 : x << n; }
static inline u64 shr(u64 x, int n) { return n >= 64 ? 0 : x >> n; }

static u64 winning(const Search *s, u64 marks, u64 empty) {
    u64 found = 0;
    int k = s->k;
    if (k == 1)
        return empty;
    for (int i = 0; i < s->nshifts; i++) {
        int d = s->shifts[i];
        if (k == 4) {
            u64 b1 = marks << d, b2 = b1 & (marks << 2 * d);
            u64 a1 = marks >> d, a2 = a1 & (marks >> 2 * d);
            found |= (b2 & (marks << 3 * d)) | (a2 & (marks >> 3 * d)) | (b2 & a1) | (b1 & a2);
        } else if (k == 3) {
            u64 b1 = marks << d, a1 = marks >> d;
            found |= (b1 & (marks << 2 * d)) | (a1 & (marks >> 2 * d)) | (b1 & a1);
        } else {
            u64 behind[MAX_BITS + 1], ahead[MAX_BITS + 1];
            behind[0] = ahead[0] = ~(u64)0;
            for (int j = 1; j < k; j++) {
                behind[j] = behind[j - 1] & shl(marks, j * d);
                ahead[j] = ahead[j - 1] & shr(marks, j * d);
            }
            for (int j = 0; j < k; j++)
                found |= behind[j] & ahead[k - 1 - j];
        }
    }
    return found & empty;
}

static int has_line(const Search *s, u64 bits) {
    int k = s->k;
    if (k == 1)
        return bits != 0;
    for (int i = 0; i < s->nshifts; i++) {
        int d = s->shifts[i];
        if (k == 4) {
            u64 pairs = bits & (bits >> d);
            if (pairs & (pairs >> 2 * d))
                return 1;
        } else if (k == 3) {
            if (bits & (bits >> d) & (bits >> 2 * d))
                return 1;
        } else {
            u64 run = bits;
            int length = 1;
            while (length * 2 <= k) {
                run &= shr(run, length * d);
                length *= 2;
            }
            if (length < k)
                run &= shr(run, (k - length) * d);
            if (run)
                return 1;
        }
    }
    return 0;
}

/* -- the table (table.py: the same buckets, slots and replacement) ------------------- */

static inline u64 bucket_of(const Search *s, u64 me, u64 mask) {
    /* ((mask << bits) | me) % buckets, without building the 128-bit key */
    return (u64)(((u128)(mask % s->buckets) * s->pow_bits + me % s->buckets) % s->buckets);
}

static const Slot *table_get(const Search *s, u64 me, u64 mask) {
    u64 slot = bucket_of(s, me, mask) << 1;
    const Slot *a = &s->slots[slot];
    if (a->used && a->me == me && a->mask == mask)
        return a;
    a++;
    if (a->used && a->me == me && a->mask == mask)
        return a;
    return NULL;
}

static void table_put(Search *s, u64 me, u64 mask, int work, int move, int bounds) {
    u64 slot = bucket_of(s, me, mask) << 1;
    Slot *deep = &s->slots[slot], *recent = deep + 1;
    int same = deep->used && deep->me == me && deep->mask == mask;
    if (!deep->used || same || work >= deep->work) {
        if (deep->used && !same) {
            if (!recent->used)
                s->filled++;
            *recent = *deep;
        }
        if (!deep->used)
            s->filled++;
        deep->used = 1;
        deep->me = me;
        deep->mask = mask;
        deep->work = (uint8_t)work;
        deep->move = (uint8_t)move;
        deep->bounds = (uint8_t)bounds;
    } else {
        if (!recent->used)
            s->filled++;
        recent->used = 1;
        recent->me = me;
        recent->mask = mask;
        recent->work = (uint8_t)work;
        recent->move = (uint8_t)move;
        recent->bounds = (uint8_t)bounds;
    }
}

/* -- symmetry keys ------------------------------------------------------------------- */

static u64 image(const int8_t *perm, u64 bits) {
    u64 out = 0;
    while (bits) {
        int b = __builtin_ctzll(bits);
        bits &= bits - 1;
        out |= (u64)1 << perm[b];
    }
    return out;
}

/* The canonical (me, mask) over the symmetries (solver.canonical_key_of), its symmetry. */
static int canonical(const Search *s, u64 *me, u64 *mask) {
    u64 best_mask = 0, best_me = 0;
    int best_sym = -1;
    for (int sym = 0; sym < s->nsyms; sym++) {
        u64 im = image(s->perm[sym], *mask), ie = image(s->perm[sym], *me);
        if (best_sym < 0 || im < best_mask || (im == best_mask && ie < best_me)) {
            best_mask = im;
            best_me = ie;
            best_sym = sym;
        }
    }
    *me = best_me;
    *mask = best_mask;
    return best_sym;
}

/* -- the clock ----------------------------------------------------------------------- */

static int check_clock(Search *s) {
    PyEval_RestoreThread(s->released);
    s->released = NULL;
    int failed = 0;
    PyObject *count = PyLong_FromLong(s->countdown);
    if (count == NULL || PyObject_SetAttrString(s->host, "countdown", count) < 0) {
        failed = 1;
    } else {
        PyObject *done = PyObject_CallMethod(s->host, "check_clock", NULL);
        if (done == NULL) {
            failed = 1;
        } else {
            Py_DECREF(done);
            PyObject *left = PyObject_GetAttrString(s->host, "countdown");
            if (left == NULL) {
                failed = 1;
            } else {
                s->countdown = PyLong_AsLong(left);
                Py_DECREF(left);
                failed = s->countdown == -1 && PyErr_Occurred();
            }
        }
    }
    Py_XDECREF(count);
    s->released = PyEval_SaveThread();
    return failed ? -1 : 0;
}

/* -- the search (value_search.py's search, line for line) ----------------------------- */

static int search(Search *s, u64 me, u64 mask, int alpha, int beta) {
    if (--s->countdown <= 0 && check_clock(s) < 0)
        return ERROR_SCORE;
    const u64 board = s->board;
    u64 opp = me ^ mask, empty = board & ~mask;
    if (!empty)
        return 0;
    u64 playable = s->gravity ? (mask + s->bottom) & board : empty;
    u64 moves;
    int high, low;
    if (s->misere) {
        moves = playable & ~winning(s, me, playable);
        if (!moves)
            return -1;
        high = has_line(s, board & ~me) ? 1 : 0;
        low = has_line(s, board & ~opp) ? -1 : 0;
    } else {
        if (winning(s, me, playable))
            return 1;
        u64 threats = winning(s, opp, empty), now = threats & playable;
        if (now) {
            if (now & (now - 1))
                return -1;
            if (s->gravity && ((now << 1) & threats))
                return -1;
            moves = now;
        } else {
            moves = s->gravity ? playable & ~(threats >> 1) : playable;
            if (!moves)
                return -1;
        }
        high = has_line(s, board & ~opp) ? 1 : 0;
        low = has_line(s, board & ~me) ? -1 : 0;
    }
    if (high == low)
        return high;
    u64 key_me = me, key_mask = mask;
    int sym = 0;
    if (s->nsyms > 1 && __builtin_popcountll(mask) <= SYMMETRY_PLIES)
        sym = canonical(s, &key_me, &key_mask);
    const Slot *entry = table_get(s, key_me, key_mask);
    int hint = -1; /* a bit index */
    if (entry != NULL) {
        if ((entry->bounds & 3) - 1 > low)
            low = (entry->bounds & 3) - 1;
        if ((entry->bounds >> 2 & 3) - 1 < high)
            high = (entry->bounds >> 2 & 3) - 1;
        if (entry->move)
            hint = sym ? s->inverse[sym][entry->move - 1] : entry->move - 1;
    }
    if (low >= beta || low == high)
        return low;
    if (high <= alpha)
        return high;
    if (low > alpha)
        alpha = low;
    if (high < beta)
        beta = high;
    int ordered[MAX_BITS], n = 0;
    if (moves & (moves - 1)) {
        int count = __builtin_popcountll(moves);
        if (__builtin_popcountll(empty) >= ORDER_EMPTY && count <= EVALUATE_MAX_MOVES) {
            long score[MAX_BITS];
            long weight = s->norder + 1;
            for (int i = 0; i < s->norder; i++) {
                int b = s->order[i];
                u64 move = (u64)1 << b;
                if (move & moves) {
                    long threats = __builtin_popcountll(winning(s, me | move, empty ^ move));
                    long value = threats * weight + s->rank[b];
                    int j = n++; /* insertion sort, best first (ranks differ: no ties) */
                    while (j > 0 && score[j - 1] < value) {
                        score[j] = score[j - 1];
                        ordered[j] = ordered[j - 1];
                        j--;
                    }
                    score[j] = value;
                    ordered[j] = b;
                }
            }
        } else {
            for (int i = 0; i < s->norder; i++)
                if (((u64)1 << s->order[i]) & moves)
                    ordered[n++] = s->order[i];
        }
        if (hint >= 0 && n > 0 && (((u64)1 << hint) & moves) && ordered[0] != hint) {
            int j = 0;
            while (ordered[j] != hint)
                j++;
            for (; j > 0; j--)
                ordered[j] = ordered[j - 1];
            ordered[0] = hint;
        }
    } else {
        ordered[n++] = __builtin_ctzll(moves);
    }
    int best = -2, best_move = 0, start_alpha = alpha;
    for (int i = 0; i < n; i++) {
        u64 child_mask = mask | ((u64)1 << ordered[i]);
        int score = 0;
        if (child_mask != board) {
            int child = search(s, opp, child_mask, -beta, -alpha);
            if (child == ERROR_SCORE)
                return ERROR_SCORE;
            score = -child;
        }
        if (score > best) {
            best = score;
            best_move = ordered[i];
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (best >= beta)
        low = best;
    else if (best <= start_alpha)
        high = best;
    else
        low = high = best;
    if (sym)
        best_move = s->perm[sym][best_move];
    table_put(s, key_me, key_mask, __builtin_popcountll(board) - __builtin_popcountll(mask),
              best_move + 1, (high + 1) << 2 | (low + 1));
    return best;
}

/* -- the distance search (distance_search.py, line for line) ------------------------ */

static DistanceSlot *distance_slot(Search *s, u64 me, u64 mask, int kind, int *found) {
    /* key: (((mask << bits) | me) << 1) | kind, in table.py's two slots */
    u64 p = s->distance_buckets;
    u64 slot = (u64)(((u128)(mask % p) * s->distance_pow + (u128)(me % p) * 2 + (u64)kind) % p)
               << 1;
    DistanceSlot *a = &s->distance_slots[slot];
    for (int i = 0; i < 2; i++) {
        if (a[i].used && a[i].me == me && a[i].mask == mask && a[i].kind == kind) {
            *found = 1;
            return &a[i];
        }
    }
    *found = 0;
    return a;
}

static int recall(Search *s, u64 me, u64 mask, int plies, int kind) {
    int found;
    DistanceSlot *entry = distance_slot(s, me, mask, kind, &found);
    if (!found)
        return -1;
    if (plies >= entry->yes)
        return 1;
    if (plies <= entry->no)
        return 0;
    return -1;
}

static int remember(Search *s, u64 me, u64 mask, int plies, int kind, int result) {
    int found;
    DistanceSlot *deep = distance_slot(s, me, mask, kind, &found);
    DistanceSlot entry = {me, mask, 1, 0, (uint8_t)kind, -1, NO_PLIES};
    if (found) {
        entry.no = deep->no;
        entry.yes = deep->yes;
        deep = &s->distance_slots[(deep - s->distance_slots) & ~(ptrdiff_t)1];
    }
    if (result && plies < entry.yes)
        entry.yes = (int8_t)plies;
    if (!result && plies > entry.no)
        entry.no = (int8_t)plies;
    entry.work = (uint8_t)(__builtin_popcountll(s->board) - __builtin_popcountll(mask));
    /* table.put: the deep slot keeps the most work, the recent one takes the rest */
    DistanceSlot *recent = deep + 1;
    int same = deep->used && deep->me == me && deep->mask == mask && deep->kind == kind;
    if (!deep->used || same || entry.work >= deep->work) {
        if (deep->used && !same)
            *recent = *deep;
        *deep = entry;
    } else {
        *recent = entry;
    }
    return result;
}

static int loses(Search *s, u64 me, u64 mask, int plies);

static int wins(Search *s, u64 me, u64 mask, int plies) {
    if (--s->countdown <= 0 && check_clock(s) < 0)
        return -1;
    const u64 board = s->board;
    u64 opp = me ^ mask, empty = board & ~mask;
    u64 playable = s->gravity ? (mask + s->bottom) & board : empty;
    u64 moves;
    if (plies < 1 || !empty)
        return 0;
    if (s->misere) {
        if (plies < 2 || !has_line(s, board & ~me))
            return 0;
        moves = playable & ~winning(s, me, playable);
    } else {
        if (winning(s, me, playable))
            return 1;
        if (plies < 3 || !has_line(s, board & ~opp))
            return 0;
        u64 threats = winning(s, opp, empty), now = threats & playable;
        if (now & (now - 1))
            return 0;
        moves = now ? now : (s->gravity ? playable & ~(threats >> 1) : playable);
    }
    if (!moves)
        return 0;
    int known = recall(s, me, mask, plies, 0);
    if (known >= 0)
        return known;
    for (int i = 0; i < s->norder; i++) {
        u64 move = (u64)1 << s->order[i];
        if (move & moves) {
            u64 child_mask = mask | move;
            if (child_mask != board) {
                int lost = loses(s, opp, child_mask, plies - 1);
                if (lost < 0)
                    return -1;
                if (lost)
                    return remember(s, me, mask, plies, 0, 1);
            }
        }
    }
    return remember(s, me, mask, plies, 0, 0);
}

static int loses(Search *s, u64 me, u64 mask, int plies) {
    if (--s->countdown <= 0 && check_clock(s) < 0)
        return -1;
    const u64 board = s->board;
    u64 opp = me ^ mask, empty = board & ~mask;
    if (plies < 1 || !empty)
        return 0;
    u64 playable = s->gravity ? (mask + s->bottom) & board : empty;
    u64 moves;
    if (s->misere) {
        moves = playable & ~winning(s, me, playable);
        if (!moves)
            return 1;
        if (plies < 3 || !has_line(s, board & ~opp))
            return 0;
    } else {
        if (plies < 2 || winning(s, me, playable))
            return 0;
        u64 threats = winning(s, opp, empty), now = threats & playable;
        if (now & (now - 1))
            return 1;
        moves = now ? now : (s->gravity ? playable & ~(threats >> 1) : playable);
        if (!has_line(s, board & ~me))
            return 0;
        if (!moves)
            return 1;
    }
    int known = recall(s, me, mask, plies, 1);
    if (known >= 0)
        return known;
    for (int i = 0; i < s->norder; i++) {
        u64 move = (u64)1 << s->order[i];
        if (move & moves) {
            u64 child_mask = mask | move;
            int won = 0;
            if (child_mask != board) {
                won = wins(s, opp, child_mask, plies - 1);
                if (won < 0)
                    return -1;
            }
            if (!won)
                return remember(s, me, mask, plies, 1, 0);
        }
    }
    return remember(s, me, mask, plies, 1, 1);
}

/* -- the Python face ------------------------------------------------------------------ */

static int as_u64(PyObject *value, u64 *out, const char *what) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    unsigned long long got = PyLong_AsUnsignedLongLong(value);
    if (got == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must fit 64 bits, got %R", what, value);
        return -1;
    }
    *out = (u64)got;
    return 0;
}

static int read_ints(PyObject *seq, int *out, int limit, int lo, int hi, const char *what) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d %s, got %zd", limit, what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int Search_init(Search *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"host", "bits", "board", "bottom", "gravity", "misere", "k",
                            "shifts", "order", "perms", "buckets", "distance_buckets", NULL};
    PyObject *host, *board, *bottom, *shifts, *order, *perms;
    int bits, gravity, misere, k;
    unsigned long long buckets, distance_buckets;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOOppiOOOKK", names, &host, &bits, &board,
                                     &bottom, &gravity, &misere, &k, &shifts, &order, &perms,
                                     &buckets, &distance_buckets))
        return -1;
    if (self->slots != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "already initialised");
        return -1;
    }
    if (bits < 1 || bits > MAX_BITS || k < 1 || k > MAX_BITS) {
        PyErr_Format(PyExc_ValueError, "boards of 1 to 64 bits and k of 1 to 64, got %d, %d",
                     bits, k);
        return -1;
    }
    if (buckets < 1 || buckets > ((u64)1 << 40) || distance_buckets < 1 ||
        distance_buckets > ((u64)1 << 40)) {
        PyErr_Format(PyExc_ValueError, "buckets must be 1 to 2**40, got %llu and %llu",
                     buckets, distance_buckets);
        return -1;
    }
    self->bits = bits;
    self->k = k;
    self->gravity = gravity;
    self->misere = misere;
    if (as_u64(board, &self->board, "board") < 0 || as_u64(bottom, &self->bottom, "bottom") < 0)
        return -1;
    self->nshifts = read_ints(shifts, self->shifts, MAX_SHIFTS, 1, MAX_BITS - 1, "shifts");
    if (self->nshifts < 0)
        return -1;
    for (int i = 0; i < self->nshifts; i++) {
        if ((long)(k - 1) * self->shifts[i] >= 64) {
            PyErr_Format(PyExc_ValueError, "a line of %d along shift %d leaves 64 bits", k,
                         self->shifts[i]);
            return -1;
        }
    }
    self->norder = read_ints(order, self->order, MAX_BITS, 0, bits - 1, "order bits");
    if (self->norder < 0)
        return -1;
    for (int i = 0; i < self->norder; i++)
        self->rank[self->order[i]] = self->norder - i;
    PyObject *fast = PySequence_Fast(perms, "perms must be a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t nsyms = PySequence_Fast_GET_SIZE(fast);
    if (nsyms > MAX_SYMS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d symmetries, got %zd", MAX_SYMS, nsyms);
        return -1;
    }
    self->nsyms = (int)nsyms;
    for (Py_ssize_t sym = 0; sym < nsyms; sym++) {
        int perm[MAX_BITS];
        int got = read_ints(PySequence_Fast_GET_ITEM(fast, sym), perm, MAX_BITS, 0, bits - 1,
                            "symmetry bits");
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (got != bits) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "a symmetry maps every one of %d bits, got %d",
                         bits, got);
            return -1;
        }
        for (int b = 0; b < bits; b++) {
            self->perm[sym][b] = (int8_t)perm[b];
            self->inverse[sym][perm[b]] = (int8_t)b;
        }
    }
    Py_DECREF(fast);
    self->buckets = buckets;
    self->pow_bits = (u64)(((u128)1 << bits) % buckets);
    self->distance_buckets = distance_buckets;
    self->distance_pow = (u64)(((u128)1 << (bits + 1)) % distance_buckets);
    self->slots = PyMem_RawCalloc((size_t)(2 * buckets), sizeof(Slot));
    self->distance_slots = PyMem_RawCalloc((size_t)(2 * distance_buckets), sizeof(DistanceSlot));
    if (self->slots == NULL || self->distance_slots == NULL) {
        PyMem_RawFree(self->slots);
        PyMem_RawFree(self->distance_slots);
        self->slots = NULL;
        self->distance_slots = NULL;
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(host);
    self->host = host;
    return 0;
}

/* The host (the solver) holds this search, and this search its host: a cycle only the
   garbage collector can free, so the type takes part in it. Without this every solver
   and its tables outlived their use (about 230 kB a small solver: a book build of 7x6
   ran out of memory). */
static int Search_traverse(Search *self, visitproc visit, void *arg) {
    Py_VISIT(self->host);
    return 0;
}

static int Search_clear(Search *self) {
    Py_CLEAR(self->host);
    return 0;
}

static void Search_dealloc(Search *self) {
    PyObject_GC_UnTrack(self);
    Search_clear(self);
    PyMem_RawFree(self->slots);
    PyMem_RawFree(self->distance_slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(Search *self) {
    if (self->slots == NULL || self->host == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the search is not initialised");
        return -1;
    }
    return 0;
}

enum { VALUE, WINS, LOSES };

/* One search from Python: the position checked, the host's countdown taken in and given
 * back, the GIL released while it runs. */
static PyObject *run(Search *self, PyObject *args, int which) {
    PyObject *me_obj, *mask_obj;
    int alpha = 0, beta = 0, plies = 0;
    u64 me, mask;
    int parsed = which == VALUE
                     ? PyArg_ParseTuple(args, "OOii", &me_obj, &mask_obj, &alpha, &beta)
                     : PyArg_ParseTuple(args, "OOi", &me_obj, &mask_obj, &plies);
    if (!parsed || ready(self) < 0)
        return NULL;
    if (as_u64(me_obj, &me, "me") < 0 || as_u64(mask_obj, &mask, "mask") < 0)
        return NULL;
    if ((me & ~mask) || (mask & ~self->board)) {
        PyErr_Format(PyExc_ValueError, "not a position: %R", args);
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    PyObject *left = PyObject_GetAttrString(self->host, "countdown");
    if (left == NULL)
        return NULL;
    self->countdown = PyLong_AsLong(left);
    Py_DECREF(left);
    if (self->countdown == -1 && PyErr_Occurred())
        return NULL;
    self->busy = 1;
    self->released = PyEval_SaveThread();
    int value, failed;
    if (which == VALUE) {
        value = search(self, me, mask, alpha, beta);
        failed = value == ERROR_SCORE;
    } else {
        value = which == WINS ? wins(self, me, mask, plies) : loses(self, me, mask, plies);
        failed = value < 0;
    }
    PyEval_RestoreThread(self->released);
    self->released = NULL;
    self->busy = 0;
    if (failed) /* raised by check_clock(), which left the count in the host */
        return NULL;
    PyObject *count = PyLong_FromLong(self->countdown);
    if (count == NULL)
        return NULL;
    int unset = PyObject_SetAttrString(self->host, "countdown", count);
    Py_DECREF(count);
    if (unset < 0)
        return NULL;
    if (which == VALUE)
        return PyLong_FromLong(value);
    return PyBool_FromLong(value);
}

static PyObject *Search_search(Search *self, PyObject *args) { return run(self, args, VALUE); }
static PyObject *Search_wins(Search *self, PyObject *args) { return run(self, args, WINS); }
static PyObject *Search_loses(Search *self, PyObject *args) { return run(self, args, LOSES); }

static PyObject *Search_get(Search *self, PyObject *key_obj) {
    if (ready(self) < 0)
        return NULL;
    if (!PyLong_Check(key_obj)) {
        PyErr_SetString(PyExc_TypeError, "a key is an int");
        return NULL;
    }
    PyObject *shift = PyLong_FromLong(self->bits);
    if (shift == NULL)
        return NULL;
    PyObject *high = PyNumber_Rshift(key_obj, shift);
    Py_DECREF(shift);
    if (high == NULL)
        return NULL;
    u64 mask;
    int bad = as_u64(high, &mask, "a key's mask");
    Py_DECREF(high);
    if (bad < 0)
        return NULL;
    PyObject *low_bits = PyLong_FromUnsignedLongLong(
        self->bits == 64 ? ~(u64)0 : ((u64)1 << self->bits) - 1);
    if (low_bits == NULL)
        return NULL;
    PyObject *low = PyNumber_And(key_obj, low_bits);
    Py_DECREF(low_bits);
    if (low == NULL)
        return NULL;
    u64 me;
    bad = as_u64(low, &me, "a key's marks");
    Py_DECREF(low);
    if (bad < 0)
        return NULL;
    const Slot *slot = table_get(self, me, mask);
    if (slot == NULL)
        Py_RETURN_NONE;
    PyObject *move = PyLong_FromUnsignedLongLong(slot->move ? (u64)1 << (slot->move - 1) : 0);
    if (move == NULL)
        return NULL;
    PyObject *four = PyLong_FromLong(4);
    PyObject *shifted = four == NULL ? NULL : PyNumber_Lshift(move, four);
    Py_DECREF(move);
    Py_XDECREF(four);
    if (shifted == NULL)
        return NULL;
    PyObject *bounds = PyLong_FromLong(slot->bounds);
    PyObject *entry = bounds == NULL ? NULL : PyNumber_Or(shifted, bounds);
    Py_DECREF(shifted);
    Py_XDECREF(bounds);
    return entry;
}

static Py_ssize_t Search_len(Search *self) { return self->filled; }

static PyObject *Search_capacity(Search *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(2 * self->buckets);
}

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)Search_search, METH_VARARGS,
     "search(me, mask, alpha, beta) -> the value for the side to move (-1, 0, 1)"},
    {"wins", (PyCFunction)Search_wins, METH_VARARGS,
     "wins(me, mask, plies) -> whether the side to move wins, the game over within plies"},
    {"loses", (PyCFunction)Search_loses, METH_VARARGS,
     "loses(me, mask, plies) -> whether the side to move loses within plies, whatever it plays"},
    {"get", (PyCFunction)Search_get, METH_O,
     "get(key) -> the table's entry for a key (mask << bits | me), or None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"capacity", (getter)Search_capacity, NULL, "the most entries the table holds", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Search_as_sequence = {.sq_length = (lenfunc)Search_len};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "core.ai._search.ValueSearch",
    .tp_doc = PyDoc_STR("The value and distance searches, and their tables, on one board (C)."),
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_free = PyObject_GC_Del,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_as_sequence = &Search_as_sequence,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "core.ai._search",
    .m_doc = PyDoc_STR("The solver's compiled value search (core/ai/speedups.py)."),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "ValueSearch", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
