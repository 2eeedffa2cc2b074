"""Numbered schema migrations. The database's ``PRAGMA user_version`` is the number of the last one applied;
start-up applies the rest in order, each in its own transaction. Never edit a migration that has shipped: add a
new one.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: leagues, players, tables, games, the action log, snapshots and the ledger.
    """
    CREATE TABLE leagues (
        guild_id             INTEGER PRIMARY KEY,
        name                 TEXT NOT NULL DEFAULT '',
        timezone             TEXT NOT NULL DEFAULT 'UTC',
        week_start           INTEGER NOT NULL DEFAULT 0 CHECK (week_start BETWEEN 0 AND 6),  -- 0 = Monday
        standings_channel_id INTEGER,
        default_card         TEXT NOT NULL DEFAULT 'practice',
        default_rules        TEXT NOT NULL DEFAULT '{}',
        created_at           TEXT NOT NULL
    );

    CREATE TABLE players (
        player_id    INTEGER PRIMARY KEY,            -- the Discord user id
        display_name TEXT NOT NULL,
        updated_at   TEXT NOT NULL
    );

    CREATE TABLE tables (
        table_id    INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'playing', 'closed')),
        rules       TEXT NOT NULL,                   -- TableRules as JSON
        created_by  INTEGER,
        created_at  TEXT NOT NULL,
        games_played INTEGER NOT NULL DEFAULT 0,
        next_east   INTEGER NOT NULL DEFAULT 0,
        seed        INTEGER NOT NULL
    );
    CREATE INDEX tables_by_place ON tables (guild_id, channel_id, status);

    CREATE TABLE table_seats (
        table_id       INTEGER NOT NULL REFERENCES tables (table_id),
        seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        player_id      INTEGER REFERENCES players (player_id),
        computer_level TEXT,                          -- set for a computer player, or a player it stands in for
        PRIMARY KEY (table_id, seat)
    );

    CREATE TABLE games (
        game_id     INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id    INTEGER NOT NULL REFERENCES tables (table_id),
        guild_id    INTEGER NOT NULL,
        game_no     INTEGER NOT NULL,
        card_id     TEXT NOT NULL,
        rules       TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        east        INTEGER NOT NULL,
        started_at  TEXT NOT NULL,
        ended_at    TEXT,
        how         TEXT,                             -- self_pick, discard, heavenly, wall, no_live_players
        winner_seat INTEGER,
        line_id     TEXT,
        value       INTEGER,
        jokerless   INTEGER,
        self_pick   INTEGER,
        UNIQUE (table_id, game_no)
    );
    CREATE INDEX games_by_guild_end ON games (guild_id, ended_at);

    CREATE TABLE game_seats (
        game_id   INTEGER NOT NULL REFERENCES games (game_id),
        seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        player_id INTEGER REFERENCES players (player_id),   -- NULL: a computer player
        computer_level TEXT,
        PRIMARY KEY (game_id, seat)
    );

    CREATE TABLE actions (
        game_id    INTEGER NOT NULL REFERENCES games (game_id),
        seq        INTEGER NOT NULL,                  -- 0, 1, 2, ... in the order applied
        action     TEXT NOT NULL,                     -- the action in replay form (JSON)
        applied_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );

    CREATE TABLE snapshots (
        game_id    INTEGER PRIMARY KEY REFERENCES games (game_id),
        version    INTEGER NOT NULL,                  -- = number of actions applied
        state      TEXT NOT NULL,                     -- GameState JSON
        deadline   TEXT,                              -- when the table's clock next acts (ISO time), if ever
        updated_at TEXT NOT NULL
    );

    -- The ledger is double-entry: a transaction holds postings that must sum to zero before it may be
    -- closed; only closed transactions count. A game is settled by exactly one 'settlement' transaction.
    CREATE TABLE ledger_transactions (
        txn_id     INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id    INTEGER REFERENCES games (game_id),
        guild_id   INTEGER NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('settlement', 'correction')),
        memo       TEXT NOT NULL DEFAULT '',
        corrects   INTEGER REFERENCES ledger_transactions (txn_id),
        created_at TEXT NOT NULL,
        closed     INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX one_settlement_per_game ON ledger_transactions (game_id) WHERE kind = 'settlement';

    CREATE TABLE ledger_postings (
        posting_id INTEGER PRIMARY KEY AUTOINCREMENT,
        txn_id     INTEGER NOT NULL REFERENCES ledger_transactions (txn_id),
        account    TEXT NOT NULL,                     -- 'player:<id>' or 'computer:<game>:<seat>'
        player_id  INTEGER REFERENCES players (player_id),
        seat       INTEGER,
        amount     INTEGER NOT NULL,
        reason     TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX postings_by_player ON ledger_postings (player_id);

    CREATE TRIGGER ledger_balanced BEFORE UPDATE OF closed ON ledger_transactions
    WHEN NEW.closed = 1
    BEGIN
        SELECT RAISE(ABORT, 'ledger transaction does not balance')
        WHERE COALESCE((SELECT SUM(amount) FROM ledger_postings WHERE txn_id = NEW.txn_id), 0) != 0;
    END;

    CREATE TRIGGER ledger_stays_closed BEFORE UPDATE OF closed ON ledger_transactions
    WHEN OLD.closed = 1
    BEGIN
        SELECT RAISE(ABORT, 'ledger transaction is closed: corrections are new transactions');
    END;

    CREATE TRIGGER ledger_transactions_undeletable BEFORE DELETE ON ledger_transactions
    WHEN OLD.closed = 1
    BEGIN
        SELECT RAISE(ABORT, 'closed ledger transactions are never deleted: add a correction');
    END;

    CREATE TRIGGER ledger_closed_is_final BEFORE INSERT ON ledger_postings
    WHEN (SELECT closed FROM ledger_transactions WHERE txn_id = NEW.txn_id) = 1
    BEGIN
        SELECT RAISE(ABORT, 'ledger transaction is closed: corrections are new transactions');
    END;

    CREATE TRIGGER ledger_postings_immutable BEFORE UPDATE ON ledger_postings
    BEGIN
        SELECT RAISE(ABORT, 'ledger postings are never edited: add a correction');
    END;

    CREATE TRIGGER ledger_postings_undeletable BEFORE DELETE ON ledger_postings
    BEGIN
        SELECT RAISE(ABORT, 'ledger postings are never deleted: add a correction');
    END;
    """,
    # 2: one applied action in one statement. Inserting into this view appends the action to the log and moves
    # the snapshot on, refusing if the snapshot is not at the version the action was applied to.
    """
    CREATE VIEW applied_actions (game_id, seq, action, state, deadline, applied_at) AS
        SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;

    CREATE TRIGGER apply_action INSTEAD OF INSERT ON applied_actions
    BEGIN
        SELECT RAISE(ABORT, 'stale snapshot version')
         WHERE (SELECT version FROM snapshots WHERE game_id = NEW.game_id) IS NOT NEW.seq;
        INSERT INTO actions (game_id, seq, action, applied_at)
             VALUES (NEW.game_id, NEW.seq, NEW.action, NEW.applied_at);
        UPDATE snapshots SET version = NEW.seq + 1, state = NEW.state, deadline = NEW.deadline,
                             updated_at = NEW.applied_at
         WHERE game_id = NEW.game_id;
    END;
    """,
    # 3: how the service runs a table (computer pacing), where it is shown (kept for the Discord layer), and which
    # players are away (a computer playing their seat), so a restart restores all three.
    """
    ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN display TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE table_seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));
    """,
    # 4: leagues in Discord. Several leagues per guild (a league is no longer the guild itself), each with its
    # channel, members, seasons and the weekly standings posts already made; a table may count for one league.
    # The guild's own settings (its default card) and the cards it imported move to tables of their own.
    # Existing data: each guild's old league row becomes that guild's first league, and the guild's tables (and
    # so its games) count for it, as every game of the guild did before; its players become members.
    """
    CREATE TABLE guild_settings (
        guild_id     INTEGER PRIMARY KEY,
        default_card TEXT,                              -- a shipped card id or an imported card's name
        updated_at   TEXT NOT NULL
    );
    INSERT INTO guild_settings (guild_id, default_card, updated_at)
        SELECT guild_id, default_card, created_at FROM leagues WHERE default_card != 'practice';

    CREATE TABLE leagues_v4 (
        league_id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id             INTEGER NOT NULL,
        name                 TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
        name_key             TEXT NOT NULL,             -- the name as compared: case and spacing folded
        timezone             TEXT NOT NULL DEFAULT 'UTC',
        week_start           INTEGER NOT NULL DEFAULT 0 CHECK (week_start BETWEEN 0 AND 6),  -- 0 = Monday
        standings_channel_id INTEGER,                   -- its channel: tables opened there count, standings go there
        auto_join            INTEGER NOT NULL DEFAULT 1 CHECK (auto_join IN (0, 1)),
        created_by           INTEGER,
        created_at           TEXT NOT NULL,
        posts_after          TEXT NOT NULL,             -- weeks ending after this moment are posted
        UNIQUE (guild_id, name_key)
    );
    INSERT INTO leagues_v4 (guild_id, name, name_key, timezone, week_start, standings_channel_id, created_at,
                            posts_after)
        SELECT guild_id, CASE WHEN trim(name) = '' THEN 'League' ELSE substr(trim(name), 1, 40) END,
               CASE WHEN trim(name) = '' THEN 'league' ELSE lower(substr(trim(name), 1, 40)) END,
               timezone, week_start, standings_channel_id, created_at,
               strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
          FROM leagues ORDER BY guild_id;
    DROP TABLE leagues;
    ALTER TABLE leagues_v4 RENAME TO leagues;
    CREATE UNIQUE INDEX one_league_per_channel ON leagues (guild_id, standings_channel_id)
        WHERE standings_channel_id IS NOT NULL;

    ALTER TABLE tables ADD COLUMN league_id INTEGER REFERENCES leagues (league_id);
    UPDATE tables SET league_id = (SELECT l.league_id FROM leagues l WHERE l.guild_id = tables.guild_id);
    CREATE INDEX tables_by_league ON tables (league_id);

    CREATE TABLE league_members (
        league_id INTEGER NOT NULL REFERENCES leagues (league_id),
        player_id INTEGER NOT NULL,
        joined_at TEXT NOT NULL,
        how       TEXT NOT NULL CHECK (how IN ('joined', 'played')),
        PRIMARY KEY (league_id, player_id)
    );
    INSERT INTO league_members (league_id, player_id, joined_at, how)
        SELECT t.league_id, gs.player_id, MIN(g.started_at), 'played'
          FROM game_seats gs JOIN games g USING (game_id) JOIN tables t ON t.table_id = g.table_id
         WHERE t.league_id IS NOT NULL AND gs.player_id IS NOT NULL
         GROUP BY t.league_id, gs.player_id;

    CREATE TABLE seasons (
        season_id  INTEGER PRIMARY KEY AUTOINCREMENT,
        league_id  INTEGER NOT NULL REFERENCES leagues (league_id),
        name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
        name_key   TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at   TEXT,
        UNIQUE (league_id, name_key)
    );
    CREATE UNIQUE INDEX one_open_season ON seasons (league_id) WHERE ended_at IS NULL;

    -- The weekly standings posts: one row per league and week once the week is handled. 'sending' is written
    -- before the message is sent, so a crash in between is found (and the message looked for) on restart.
    CREATE TABLE league_posts (
        league_id   INTEGER NOT NULL REFERENCES leagues (league_id),
        week        TEXT NOT NULL,                      -- 2026-W48
        status      TEXT NOT NULL CHECK (status IN ('sending', 'posted', 'failed', 'empty')),
        channel_id  INTEGER,
        message_id  INTEGER,
        attempts    INTEGER NOT NULL DEFAULT 0,
        last_error  TEXT,
        next_try_at TEXT,
        reported    INTEGER NOT NULL DEFAULT 0,         -- the managers were told of the failure
        updated_at  TEXT NOT NULL,
        PRIMARY KEY (league_id, week)
    );

    CREATE TABLE guild_cards (
        guild_id    INTEGER NOT NULL,
        name        TEXT NOT NULL,                      -- the card's name in this guild
        title       TEXT NOT NULL,                      -- the [card] name in the file
        ruleset     TEXT NOT NULL,
        source      TEXT NOT NULL,                      -- the card file as imported
        imported_by INTEGER,
        imported_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, name)
    );

    -- Who to tell when something needs a manager (a weekly post that failed): the users seen passing the manager
    -- check in the guild (the bot gets no member lists).
    CREATE TABLE guild_managers (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        seen_at  TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # 5: the same schema as PostgreSQL's (bot/store/pg_schema.py). A game's full state is written every few
    # actions, not with each (state_version: the number of actions the stored state has applied; the actions
    # after it are replayed on restore), so an applied action with a NULL state moves only the version and the
    # deadline. A weekly post is claimed by one process at a time (claimed_by, until claimed_until). Postings
    # are found by their transaction (the balance check at closing sums them).
    """
    ALTER TABLE snapshots ADD COLUMN state_version INTEGER NOT NULL DEFAULT 0;
    UPDATE snapshots SET state_version = version;
    DROP TRIGGER apply_action;
    CREATE TRIGGER apply_action INSTEAD OF INSERT ON applied_actions
    BEGIN
        SELECT RAISE(ABORT, 'stale snapshot version')
         WHERE (SELECT version FROM snapshots WHERE game_id = NEW.game_id) IS NOT NEW.seq;
        INSERT INTO actions (game_id, seq, action, applied_at)
             VALUES (NEW.game_id, NEW.seq, NEW.action, NEW.applied_at);
        UPDATE snapshots SET version = NEW.seq + 1, deadline = NEW.deadline, updated_at = NEW.applied_at,
                             state = COALESCE(NEW.state, state),
                             state_version = CASE WHEN NEW.state IS NULL THEN state_version ELSE NEW.seq + 1 END
         WHERE game_id = NEW.game_id;
    END;
    ALTER TABLE league_posts ADD COLUMN claimed_by TEXT;
    ALTER TABLE league_posts ADD COLUMN claimed_until TEXT;
    CREATE INDEX postings_by_txn ON ledger_postings (txn_id);
    CREATE INDEX transactions_by_game ON ledger_transactions (game_id);
    """,
    # 6 (issue 31): a league's scoring (chips or tournament points,
    # and how its standings rank: a JSON object, '{}' for chips and totals as before). Corrections of a league's
    # record: a game voided (a correcting ledger transaction) or recorded at a physical table, with who did it,
    # when and why. League nights: the night itself (when, its rounds, what a remainder of players does, the
    # sign-up and results messages), who signed up, the tables of each round, and who was away (a computer
    # playing her seat) in each game.
    """
    ALTER TABLE leagues ADD COLUMN scoring TEXT NOT NULL DEFAULT '{}';

    CREATE TABLE game_corrections (
        correction_id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id       INTEGER NOT NULL REFERENCES games (game_id),
        guild_id      INTEGER NOT NULL,
        kind          TEXT NOT NULL CHECK (kind IN ('void', 'recorded')),
        txn_id        INTEGER REFERENCES ledger_transactions (txn_id),  -- the correction or the settlement
        reason        TEXT NOT NULL DEFAULT '',
        detail        TEXT NOT NULL DEFAULT '{}',       -- a recorded game's outcome (thrower, exposures, dead hands)
        made_by       INTEGER NOT NULL,
        made_at       TEXT NOT NULL,
        UNIQUE (game_id, kind)
    );
    CREATE INDEX corrections_by_guild ON game_corrections (guild_id, made_at);

    CREATE TABLE nights (
        night_id         INTEGER PRIMARY KEY AUTOINCREMENT,
        league_id        INTEGER NOT NULL REFERENCES leagues (league_id),
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,              -- the league's channel: the sign-up and the results
        starts_at        TEXT NOT NULL,
        closes_at        TEXT NOT NULL,                 -- registration closes (and the reminders go)
        rounds           INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 12),
        round_games      INTEGER CHECK (round_games BETWEEN 1 AND 16),       -- a round is so many games ...
        round_minutes    INTEGER CHECK (round_minutes BETWEEN 10 AND 300),   -- ... or so many minutes
        remainder        TEXT NOT NULL CHECK (remainder IN ('three', 'computers')),
        absent           TEXT NOT NULL CHECK (absent IN ('counts', 'zero')),
        rules            TEXT NOT NULL,                 -- the tables' rules (TableRules as JSON)
        seed             INTEGER NOT NULL,              -- the draws for seats and East
        status           TEXT NOT NULL CHECK (status IN ('signup', 'closed', 'playing', 'finished', 'cancelled')),
        round            INTEGER NOT NULL DEFAULT 0,    -- the round being played (0: not started)
        round_started_at TEXT,
        signup_message_id INTEGER,
        reminded         INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
        results_status   TEXT CHECK (results_status IN ('due', 'posted', 'failed')),
        results_message_id INTEGER,
        results_tries    INTEGER NOT NULL DEFAULT 0,
        results_next_try TEXT,
        created_by       INTEGER,
        created_at       TEXT NOT NULL,
        CHECK ((round_games IS NULL) <> (round_minutes IS NULL))
    );
    CREATE INDEX nights_by_league ON nights (league_id, starts_at);
    CREATE INDEX nights_by_status ON nights (status);

    CREATE TABLE night_players (
        night_id   INTEGER NOT NULL REFERENCES nights (night_id),
        player_id  INTEGER NOT NULL,
        name       TEXT NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('in', 'out')),
        from_round INTEGER NOT NULL DEFAULT 1,          -- a latecomer plays from the next round
        updated_at TEXT NOT NULL,
        PRIMARY KEY (night_id, player_id)
    );

    CREATE TABLE night_tables (
        night_id     INTEGER NOT NULL REFERENCES nights (night_id),
        round        INTEGER NOT NULL,
        table_no     INTEGER NOT NULL,
        table_id     INTEGER REFERENCES tables (table_id),
        seats        TEXT NOT NULL,                     -- JSON: the player in each seat, null for a computer
        players      INTEGER NOT NULL CHECK (players IN (3, 4)),
        status       TEXT NOT NULL CHECK (status IN ('seated', 'opened', 'playing', 'done')),
        next_deal_at TEXT,
        PRIMARY KEY (night_id, round, table_no)
    );
    CREATE UNIQUE INDEX night_table_ids ON night_tables (table_id);

    CREATE TABLE night_away (
        game_id   INTEGER NOT NULL REFERENCES games (game_id),
        player_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, player_id)
    );
    """,
    # provable deals (docs/rules.md, *Provable deals*; bot/store/fairness.py). Each game dealt gets a commitment
    # to its deal, written with the game; its salt is revealed with the seed when the game ends. Games dealt before
    # have a row of scheme 'none' (nothing was committed then), so a dealt game without a row is one whose
    # commitment went missing. A table deals each game from a fresh secret seed ('fresh'), or, opened with a seed of
    # its own (tests, simulations, the demo), game n from that seed + n as before ('table').
    """
    ALTER TABLE tables ADD COLUMN deal_seeds TEXT NOT NULL DEFAULT 'fresh' CHECK (deal_seeds IN ('fresh', 'table'));
    CREATE TABLE deal_seals (
        game_id    INTEGER PRIMARY KEY REFERENCES games (game_id),
        scheme     TEXT NOT NULL,                     -- charleston-deal/1, or 'none' for a game dealt before
        commitment TEXT NOT NULL,                     -- SHA-256 of the deal's statement, 64 hex digits
        salt       TEXT NOT NULL,                     -- 32 hex digits, secret until the game is over
        sealed_at  TEXT NOT NULL
    );
    INSERT INTO deal_seals (game_id, scheme, commitment, salt, sealed_at)
        SELECT game_id, 'none', '', '', started_at FROM games;
    """,
]
