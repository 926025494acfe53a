package dev.tickler.reminder;

import java.time.Instant;
import java.util.Map;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;

/** One reminder: the row the whole system agrees on (docs/contract.md#postgres-is-the-source-of-truth, #states). */
@Entity
@Table(name = "reminders")
public class Reminder extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String tenant;

    @Column(name = "user_id", nullable = false)
    public String userId;

    @Convert(converter = WireNameConverters.ChannelConverter.class)
    @Column(nullable = false)
    public Channel channel;

    @Column(nullable = false)
    public String template;

    @Column(name = "fire_at", nullable = false)
    public Instant fireAt;

    @Column(nullable = false)
    public String tz;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public Map<String, Object> data;

    @Convert(converter = WireNameConverters.StateConverter.class)
    @Column(nullable = false)
    public ReminderState state;

    @Column(nullable = false)
    public int version;

    @Column(nullable = false)
    public int handoff;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "last_error")
    public String lastError;

    @Column(name = "message_id")
    public String messageId;

    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "sent_at")
    public Instant sentAt;

    /** Reconciler take-overs since the last settling write; the poison guard fails the reminder past a limit. */
    @Column(nullable = false)
    public int takeovers;

    /** Ignores quiet hours. */
    @Column(nullable = false)
    public boolean urgent;

    /** When a reminder deferred by quiet hours is due back from the queue; the reconciler waits for it until then. */
    @Column(name = "deferred_until")
    public Instant deferredUntil;

    /** The schedule this reminder is an occurrence of; null for a one-shot reminder. */
    @Column(name = "schedule_id")
    public Long scheduleId;

    /** Its occurrence number in that schedule, from 1; null for a one-shot reminder. */
    @Column
    public Integer occurrence;

    /** The row as the API renders it. */
    public ReminderRow toRow() {
        return new ReminderRow(id, tenant, userId, channel, template, fireAt, tz, data, state, version, handoff, attempts,
                messageId, lastError, expiresAt, createdAt, updatedAt, sentAt, urgent, scheduleId, occurrence);
    }
}
