package dev.tickler.testing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
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

    /** Categories turned to DEBUG while open, with the level each had before (null: inherited). */
    private final Map<Logger, Level> raised = new LinkedHashMap<>();

    private CapturedLogs(String... debugCategories) {
        for (String category : debugCategories) {
            Logger logger = Logger.getLogger(category);
            raised.put(logger, logger.getLevel());
            logger.setLevel(Level.FINE);
        }
        Logger.getLogger("").addHandler(handler);
    }

    public static CapturedLogs start() {
        return new CapturedLogs();
    }

    /**
     * Captures as {@link #start()} does, with these categories logging at DEBUG until closed: for a test that must see
     * what an operator who turns on debug logging would see, or that waits for a record written only at DEBUG.
     */
    public static CapturedLogs withDebugOf(String... categories) {
        return new CapturedLogs(categories);
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
        raised.forEach(Logger::setLevel);
    }

    private static String formatted(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : String.valueOf(record.getMessage());
    }
}
