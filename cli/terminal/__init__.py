"""The terminal client: ``tictactoe play`` hot-seat, against a bot, as a client of a
server (a room or a tournament), and a saved game's replay."""
