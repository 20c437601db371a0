package io.sdmq.core.mysql;

import io.sdmq.common.UnavailableException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;

/**
 * The adapter's transactions: Spring transactions on the DataSource of its MyBatis mapper, so the mapper's statements
 * and the literal SQL run here share one connection and one commit. A transaction chosen as a deadlock victim is run
 * again; any other failure of the database leaves as {@link UnavailableException}, with the cause kept.
 */
final class Transactions {
    private static final Logger log = LoggerFactory.getLogger(Transactions.class);
    static final int ER_DUP_ENTRY = 1062;
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int MAX_TRIES = 3;

    private final DataSource dataSource;
    private final TransactionTemplate template;

    Transactions(DataSource dataSource) {
        this.dataSource = dataSource;
        this.template = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /** Runs {@code work} in a transaction of its own; {@code what} names it in the failure's message. */
    <T> T run(String what, Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return template.execute(status -> rolledBackOnFailure(work));
            } catch (DataAccessException | TransactionException | PersistenceException e) {
                if (attempt == MAX_TRIES || !hasErrorCode(e, ER_LOCK_DEADLOCK)) {
                    throw new UnavailableException("MySQL is unavailable: could not " + what, e);
                }
                log.warn("could not {}: chosen as a deadlock victim; running it again ({} of {})",
                        what, attempt + 1, MAX_TRIES);
            }
        }
    }

    /**
     * Rolls back whatever failed work left, with a {@code ROLLBACK} statement: the driver's
     * {@code useLocalTransactionState} skips {@code Connection.rollback()} when the last reply it read said no
     * transaction was open, which after a failed first statement is the reply to the transaction before.
     */
    private <T> T rolledBackOnFailure(Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException failure) {
            try {
                execute("ROLLBACK");
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
            throw failure;
        }
    }

    /**
     * Runs SQL text, one or more statements, on the current transaction's connection to its end (a statement's
     * failure surfaces only when the results reach it); answers the rows its statements changed together. With
     * escape processing off: the text is sent as it is.
     */
    int execute(String sql) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try (Statement statement = connection.createStatement()) {
            statement.setEscapeProcessing(false);
            boolean resultSet = statement.execute(sql);
            int changed = 0;
            for (int count = statement.getUpdateCount(); resultSet || count != -1; count = statement.getUpdateCount()) {
                changed += resultSet ? 0 : count;
                resultSet = statement.getMoreResults();
            }
            return changed;
        } catch (SQLException e) {
            // not the SQL itself, which holds message bodies
            throw new UncategorizedSQLException("a statement of literal SQL", null, e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    static boolean hasErrorCode(Throwable e, int code) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == code) {
                return true;
            }
        }
        return false;
    }
}
