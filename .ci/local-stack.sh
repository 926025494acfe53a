# Sourced by .ci/local-run and .ci/dev-mode, which start the application with the local stack in a process group
# of their own: waiting for readiness, the README's registration of a reminder a few seconds ahead until it is sent,
# and stopping the group. Expects $log (the application's output) and $group (the process group) to be set.

# stops the group started, at the latest a minute after asking
stop() {
    kill -TERM -- "-$group" 2>/dev/null || true
    for _ in $(seq 1 60); do
        kill -0 -- "-$group" 2>/dev/null || return 0
        sleep 1
    done
    kill -KILL -- "-$group" 2>/dev/null || true
}

# fail <what went wrong>: says it with the end of the log, and exits
fail() {
    echo "$name: $1; its log:"
    tail -n 80 "$log"
    exit 1
}

# await_ready <seconds>: until the management port answers ready, while the group runs
await_ready() {
    echo "$name: waiting for readiness on the management port"
    for i in $(seq 1 "$1"); do
        if curl -sf http://localhost:9000/q/health/ready > /dev/null; then
            return 0
        fi
        if ! kill -0 "$group" 2>/dev/null || [ "$i" -eq "$1" ]; then
            fail "not ready"
        fi
        sleep 1
    done
}

# loopback_only <port>: something listens on the port, on a loopback address only (127.0.0.0/8, the same mapped into
# IPv6, where Java binds it, or ::1): the local run's key is the README's, so nothing beyond this machine may reach it.
# Reads /proc (addresses in hex, each 32-bit word little-endian), which needs no tool.
loopback_only() {
    local port
    port=$(printf '%04X' "$1")
    awk -v port="$port" '
        $4 == "0A" {
            split($2, bound, ":")
            if (bound[2] != port) next
            found = 1
            if (bound[1] !~ /^(0000000000000000FFFF0000)?[0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F]7F$/ \
                && bound[1] != "00000000000000000000000001000000") wide = 1
        }
        END { exit !(found && !wide) }' /proc/net/tcp /proc/net/tcp6
}

# await_loopback_only: the public and the management port listen on loopback only
await_loopback_only() {
    for port in 8080 9000; do
        loopback_only "$port" || fail "port $port listens beyond loopback"
    done
    echo "$name: ports 8080 and 9000 listen on loopback only"
}

# deliver <seconds ahead>: registers a reminder due then, as the README's quick start does, and waits until it is sent
deliver() {
    local fire_at id state
    fire_at=$(date -u -d "+$1 seconds" +%Y-%m-%dT%H:%M:%SZ)
    id=$(curl -sf -X POST http://localhost:8080/v1/reminders \
        -H 'Authorization: Bearer local-dev-key' -H 'Content-Type: application/json' \
        -d "{\"user_id\": \"u_4412\", \"channel\": \"email\", \"template\": \"trial_ending\", \"fire_at\": \"$fire_at\"}" \
        | sed -E 's/.*"id":([0-9]+).*/\1/') || fail "registration refused"
    echo "$name: registered reminder $id for $fire_at"
    for _ in $(seq 1 60); do
        # a poll that gets no answer is tried again (dev mode may be restarting); only the deadline fails
        state=$( { curl -sf "http://localhost:8080/v1/reminders/$id" -H 'Authorization: Bearer local-dev-key' \
            || true; } | sed -E 's/.*"state":"([a-z_]+)".*/\1/')
        if [ "$state" = "sent" ]; then
            grep "delivered reminder $id " "$log"
            echo "$name: reminder $id sent"
            return 0
        fi
        sleep 0.5
    done
    fail "reminder $id is still $state"
}

# await_reload <seconds>: after a source change the next request recompiles and restarts the application, and a
# request that arrives while the restart finishes may fail; asks until one is answered (a 404 for reminder 0 is one)
# after the reload. Dev mode looks for changes at most every so often, so an answer may still come from the
# application as it was; the log says when the reload is done.
await_reload() {
    local status
    for _ in $(seq 1 "$1"); do
        status=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:8080/v1/reminders/0 \
            -H 'Authorization: Bearer local-dev-key' || true)
        case "$status" in
            2??|4??) grep -q "Live reload total time" "$log" && return 0 ;;
        esac
        sleep 1
    done
    fail "no answer within $1 s of the live reload"
}
