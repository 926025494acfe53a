package dev.tickler.console.rest;

import jakarta.enterprise.context.RequestScoped;

import dev.tickler.console.ConsoleSessions.Session;

/** The session of the console request being served, set by {@link ConsoleGate} before any page runs. */
@RequestScoped
public class ConsoleRequest {

    private Session session;

    void signedIn(Session session) {
        this.session = session;
    }

    public Session session() {
        return session;
    }

    public String operator() {
        return session.operator();
    }
}
