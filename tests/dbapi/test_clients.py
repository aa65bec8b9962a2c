"""Real clients through the module: SQLAlchemy Core and ORM (``module=``) and pandas
(to_sql/read_sql on a raw connection and through SQLAlchemy). Same results as sqlite3."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest
from sqlalchemy import (
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship


@pytest.fixture
def engine(sqlite):
    engine = create_engine("sqlite://", module=sqlite.module)
    yield engine
    engine.dispose()


@pytest.fixture
def core_tables(engine):
    metadata = MetaData()
    users = Table("users", metadata, Column("id", Integer, primary_key=True),
                  Column("name", String(50)))
    addresses = Table("addresses", metadata, Column("id", Integer, primary_key=True),
                      Column("user_id", ForeignKey("users.id")), Column("email", String))
    metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(users), [{"name": "ann"}, {"name": "bob"}])
        conn.execute(insert(addresses), [{"user_id": 1, "email": "a@x"},
                                         {"user_id": 2, "email": "b@x"},
                                         {"user_id": 1, "email": "a2@x"}])
    return users, addresses


def test_sqlalchemy_core_join(engine, core_tables):
    users, addresses = core_tables
    with engine.connect() as conn:
        rows = conn.execute(select(users.c.name, addresses.c.email).join(addresses)
                            .order_by(addresses.c.email)).all()
    assert [tuple(r) for r in rows] == [("ann", "a2@x"), ("ann", "a@x"), ("bob", "b@x")]


def test_sqlalchemy_core_transactions(engine, core_tables):
    users, addresses = core_tables
    with engine.connect() as conn:
        conn.execute(update(users).where(users.c.name == "bob").values(name="robert"))
        conn.rollback()
        assert conn.execute(select(users.c.name).order_by(users.c.id)).scalars().all() == \
            ["ann", "bob"]
        conn.execute(delete(addresses).where(addresses.c.email == "b@x"))
        conn.commit()
        assert conn.execute(select(func.count()).select_from(addresses)).scalar() == 2


def test_sqlalchemy_orm(engine):
    class Base(DeclarativeBase):
        pass

    class User(Base):
        __tablename__ = "u"
        id: Mapped[int] = mapped_column(primary_key=True)
        name: Mapped[str]
        posts: Mapped[list["Post"]] = relationship(back_populates="user")

    class Post(Base):
        __tablename__ = "p"
        id: Mapped[int] = mapped_column(primary_key=True)
        user_id: Mapped[int] = mapped_column(ForeignKey("u.id"))
        title: Mapped[str]
        user: Mapped[User] = relationship(back_populates="posts")

    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(User(name="zed", posts=[Post(title="one"), Post(title="two")]))
        session.commit()
        posts = session.scalars(select(Post).order_by(Post.title)).all()
        assert [(p.user.name, p.title) for p in posts] == [("zed", "one"), ("zed", "two")]
        user = session.get(User, 1)
        user.name = "zz"
        session.delete(session.get(Post, 1))
        session.commit()
        assert session.scalars(select(User.name)).all() == ["zz"]
        assert [p.title for p in session.get(User, 1).posts] == ["two"]


FRAME = pd.DataFrame({"name": ["ann", "bob", None], "score": [1.5, 2.0, None], "n": [1, 2, 3]})


def test_pandas_on_a_connection(sqlite):
    con = sqlite.connect(":memory:")
    with warnings.catch_warnings():
        # pandas warns for any DB-API connection other than the stdlib's own class.
        warnings.simplefilter("ignore", UserWarning)
        FRAME.to_sql("t", con, index=False)
        result = pd.read_sql("select * from t order by n", con)
    pd.testing.assert_frame_equal(result, FRAME)


def test_pandas_through_sqlalchemy(engine):
    FRAME.to_sql("t", engine, index=True)
    result = pd.read_sql("select name, n from t where n > 1 order by n", engine)
    pd.testing.assert_frame_equal(result, pd.DataFrame({"name": ["bob", None], "n": [2, 3]}))
    table = pd.read_sql_table("t", engine)
    assert list(table.columns) == ["index", "name", "score", "n"]
    assert table["n"].tolist() == [1, 2, 3]
