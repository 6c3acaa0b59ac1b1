# A tiny engine in awk for the engine protocol (docs/engine-protocol.md), to show that any
# language can play: it takes the centre when it is free, else the first free cell row by
# row, reading the board from the position line. Two players, 2D, no gravity.
# Run: awk -f first_free.awk
$1 == "tttengine" {
    print "id name first-free.awk"
    print "id version 1"
    print "supports players=2 layers=1 gravity=false"
    print "ready"
    fflush()
    next
}
$1 == "position" {
    board = ""
    for (i = 2; i < NF; i++) if ($i == "board") board = $(i + 1)
    next
}
$1 == "go" {
    rows = split(board, row, "/")
    cols = length(row[1])
    r = int((rows + 1) / 2)
    c = int((cols + 1) / 2)
    if (substr(row[r], c, 1) != ".") {
        found = 0
        for (r = 1; r <= rows && !found; r++)
            for (c = 1; c <= cols && !found; c++)
                if (substr(row[r], c, 1) == ".") found = 1
        r--; c--
        if (!found) { print "error no free cell"; fflush(); next }
    }
    print "bestmove " (r - 1) "," (c - 1)
    fflush()
    next
}
$1 == "quit" { exit 0 }
