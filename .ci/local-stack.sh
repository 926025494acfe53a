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
await_reload() {
    local status
    for _ in $(seq 1 "$1"); do
        status=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:8080/v1/reminders/0 \
            -H 'Authorization: Bearer local-dev-key' || true)
        case "$status" in
            2??|4??) return 0 ;;
        esac
        sleep 1
    done
    fail "no answer within $1 s of the live reload"
}
