package dev.tickler.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/** Every log record the application writes while it is open, formatted as a log line would carry it. */
public final class CapturedLogs implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
            String message = record.getMessage();
            Object[] parameters = record.getParameters();
            String text = parameters == null || message == null ? String.valueOf(message)
                    : message + " " + List.of(parameters);
            lines.add(record.getLoggerName() + " " + text
                    + (record.getThrown() == null ? "" : " " + record.getThrown()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLogs() {
        Logger.getLogger("").addHandler(handler);
    }

    public static CapturedLogs start() {
        return new CapturedLogs();
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Each record's logger and message with its parameters filled in, as the log line reads. */
    public List<String> messages() {
        return records.stream().map(record -> record.getLoggerName() + " " + formatted(record)).toList();
    }

    /** The records themselves, for their level and whether they carry a stack trace. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(handler);
    }

    private static String formatted(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : String.valueOf(record.getMessage());
    }
}
