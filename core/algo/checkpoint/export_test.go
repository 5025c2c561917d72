package checkpoint

// CheckLine is the recovery line's check, windowed or over every message.
var CheckLine = checkLine
