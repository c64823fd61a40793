"""The component schemas: the request bodies, from the domain's declarations
(jackpot.domain.fields), and the answers."""

from __future__ import annotations

from typing import Any

from jackpot.domain.answers import answer_schema
from jackpot.domain.checkpoints import SCHEMA as CHECKPOINT
from jackpot.domain.config import POOL_REQUEST, STAGE_REQUEST, TABLE_REQUEST
from jackpot.domain.errorbody import ErrorBody, ErrorDetail
from jackpot.domain.game import Game
from jackpot.domain.healthanswers import Liveness, ProblemFound, Ready, SoftwareFound
from jackpot.domain.journalanswers import ActivityList, JournalPage
from jackpot.domain.meter import ArmedTrigger
from jackpot.domain.payout import (
    ComparedNames,
    CoveredPayout,
    Payout,
    PayoutAfterStep,
    VoidRequest,
)
from jackpot.domain.payoutanswers import (
    PayoutList,
    PayoutPage,
    PayoutRecord,
    PayoutStep,
    StatusTotal,
)
from jackpot.domain.people import Person
from jackpot.domain.poolanswers import PoolAdjusted, PoolMeters, PoolRetired, PublicPool
from jackpot.domain.reconcile import Reconciliation
from jackpot.domain.reportanswers import Report
from jackpot.domain.requests import (
    ADJUSTMENT_REQUEST,
    APPROVE_REQUEST,
    CANCEL_STAGED_REQUEST,
    CONFIRM_REQUEST,
    DISPUTE_REQUEST,
    GAME_CHANGE_REQUEST,
    MOVE_REQUEST,
    RECONCILE_REQUEST,
    RESUME_REQUEST,
    RETIRE_REQUEST,
    ROUND_REPORT,
    ROUND_VOID_APPROVE_REQUEST,
    ROUND_VOID_REFUSE_REQUEST,
    ROUND_VOID_REQUEST,
    SUSPEND_REQUEST,
    VOID_APPROVE_REQUEST,
    VOID_REFUSE_REQUEST,
    VOID_REQUEST,
)
from jackpot.domain.roundanswers import BetResult, HandPayHeld, JackpotWon, PoolValue, RoundResult
from jackpot.domain.sessionanswers import Session
from jackpot.domain.signanswers import SignAnswer, SignDeleted, SignLevel, SignList
from jackpot.domain.signs import SIGN_REQUEST
from jackpot.domain.tableanswers import (
    CountsAcknowledged,
    CountsAnswer,
    DayCheck,
    Heartbeat,
    TableAnswer,
    TableList,
    TableMoved,
)
from jackpot.domain.tablecounts import ACKNOWLEDGE_REQUEST, COUNTS_REQUEST

# the answers declared once, as records (jackpot.domain.answers)
ANSWERS = (
    PublicPool,
    PoolMeters,
    ArmedTrigger,
    Person,
    Payout,
    VoidRequest,
    ComparedNames,
    PayoutAfterStep,
    CoveredPayout,
    PayoutList,
    PayoutRecord,
    PayoutStep,
    PayoutPage,
    StatusTotal,
    Game,
    ErrorBody,
    ErrorDetail,
    RoundResult,
    BetResult,
    JackpotWon,
    HandPayHeld,
    PoolValue,
    TableAnswer,
    TableList,
    TableMoved,
    CountsAnswer,
    DayCheck,
    CountsAcknowledged,
    Heartbeat,
    SignAnswer,
    SignLevel,
    SignList,
    SignDeleted,
    Liveness,
    Ready,
    ProblemFound,
    SoftwareFound,
    Session,
    PoolAdjusted,
    PoolRetired,
    Report,
    Reconciliation,
    JournalPage,
    ActivityList,
)

SCHEMAS: dict[str, Any] = {
    "Checkpoint": CHECKPOINT,
    "PoolConfig": POOL_REQUEST.schema(),
    "TableConfig": TABLE_REQUEST.schema(),
    "RoundReport": ROUND_REPORT.schema(),
    **{answer.NAME: answer_schema(answer) for answer in ANSWERS},
    "ReconcileRequest": RECONCILE_REQUEST.schema(),
    "Adjustment": ADJUSTMENT_REQUEST.schema(),
    "Suspend": SUSPEND_REQUEST.schema(),
    "Resume": RESUME_REQUEST.schema(),
    "Retire": RETIRE_REQUEST.schema(),
    "TableMove": MOVE_REQUEST.schema(),
    "StageChange": STAGE_REQUEST.schema(),
    "Sign": SIGN_REQUEST.schema(),
    "CancelStaged": CANCEL_STAGED_REQUEST.schema(),
    "PayoutConfirm": CONFIRM_REQUEST.schema(),
    "PayoutDispute": DISPUTE_REQUEST.schema(),
    "PayoutApprove": APPROVE_REQUEST.schema(),
    "PayoutVoid": VOID_REQUEST.schema(),
    "PayoutVoidApprove": VOID_APPROVE_REQUEST.schema(),
    "PayoutVoidRefuse": VOID_REFUSE_REQUEST.schema(),
    "RoundVoid": ROUND_VOID_REQUEST.schema(),
    "TableCounts": COUNTS_REQUEST.schema(),
    "TableCountsAcknowledge": ACKNOWLEDGE_REQUEST.schema(),
    "RoundVoidApprove": ROUND_VOID_APPROVE_REQUEST.schema(),
    "RoundVoidRefuse": ROUND_VOID_REFUSE_REQUEST.schema(),
    "GameChange": GAME_CHANGE_REQUEST.schema(),
}
