#!/bin/sh
# An engine that misbehaves the way $1 says, for the driver's tests: mute (never answers the
# handshake), crash (exits 3 on go, saying why on stderr), slow (never answers go), illegal
# (always plays 0,0), garbage (a bestmove that names no cell), refuse (an error answer),
# chatty (info and stray lines before a good move), crash_later (crashes on its 2nd go).
mode=$1
goes=0
while IFS= read -r line; do
    case $line in
    tttengine*)
        [ "$mode" = mute ] && continue
        echo "info starting up"
        echo "id name misbehaving $mode"
        echo "id version 0"
        echo "supports"
        echo "ready"
        ;;
    go*)
        goes=$((goes + 1))
        case $mode in
        crash) echo "giving up on purpose" >&2; exit 3 ;;
        crash_later) [ $goes -ge 2 ] && { echo "out of ideas" >&2; exit 4; }; echo "bestmove 1,1" ;;
        slow) ;;
        illegal) echo "bestmove 0,0" ;;
        garbage) echo "bestmove banana" ;;
        refuse) echo "error cannot think today" ;;
        chatty) echo "info depth 1"; echo "debug text an engine forgot"; echo "bestmove 2,2" ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
