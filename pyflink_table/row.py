"""``Row`` and ``RowKind``: the record type of PyFlink's Table API.

This module mirrors the observable behaviour of ``pyflink.common.Row`` and
``pyflink.common.RowKind`` in PyFlink 2.3 (measured, not copied):

* ``Row(1, 'a')`` is a positional row; it prints as ``<Row(1, 'a')>`` and has no
  field names (``row._fields`` raises ``AttributeError``).
* ``Row(a=1, b='x')`` is a named row; fields keep the order given and it prints
  as ``Row(a=1, b='x')``.
* ``Row('a', 'b')`` used as a "row class": calling it, ``Row('a', 'b')(1, 2)``,
  gives the named row ``Row(a=1, b=2)``.
* Equality is not tuple equality: a row never equals a tuple or a list, a named
  row never equals a positional one, named rows compare their values by field
  name (field order does not matter), and the :class:`RowKind` must match too.
* Rows are mutable (``row[0] = 5``, ``row['a'] = 5``) but reject new attributes.

``Row`` is not a ``tuple`` subclass, exactly like PyFlink's.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

__all__ = ["Row", "RowKind"]


class RowKind(Enum):
    """The kind of change a row stands for in a changelog.

    ``str()`` gives Flink's short form:

    >>> str(RowKind.INSERT), str(RowKind.UPDATE_BEFORE), str(RowKind.UPDATE_AFTER), str(RowKind.DELETE)
    ('+I', '-U', '+U', '-D')
    """

    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def __str__(self) -> str:
        """The short string of the kind: ``+I``, ``-U``, ``+U`` or ``-D``.

        :return: the short string.
        """
        return _SHORT_STRINGS[self.value]


_SHORT_STRINGS = {0: "+I", 1: "-U", 2: "+U", 3: "-D"}

# Attributes a Row may carry; everything else is refused by __setattr__.
_INTERNAL_ATTRIBUTES = frozenset(("_fields", "_values", "_from_dict", "_row_kind"))


def _create_row(fields: Optional[Sequence[str]], values: Sequence[Any],
                row_kind: Optional[RowKind] = None) -> "Row":
    """Build a row from field names (or None for a positional row), values and a kind.

    Used by :meth:`Row.__call__` and for unpickling.
    """
    row = Row(*values)
    if fields is not None:
        row._fields = list(fields)
    if row_kind is not None:
        row._row_kind = row_kind
    return row


class Row:
    """A row in a table.

    Its fields can be read like attributes (``row.key``) or like dictionary
    values (``row['key']``), and by position (``row[0]``); ``key in row``
    searches the field names of a named row (the values of a positional one).

    Named arguments create a named row, keeping their order:

    >>> row = Row(name="Alice", age=11)
    >>> row
    Row(name='Alice', age=11)
    >>> row['name'], row.age
    ('Alice', 11)
    >>> 'name' in row
    True

    Positional arguments create a row without names:

    >>> Row(1, 'a')
    <Row(1, 'a')>

    A row of strings can serve as a row class:

    >>> Person = Row("name", "age")
    >>> Person("Alice", 11)
    Row(name='Alice', age=11)

    :param args: the values of a positional row (or the field names of a row class).
    :param kwargs: the fields of a named row, in order.
    :raises ValueError: if both positional and named arguments are given.
    """

    __slots__ = ("_fields", "_values", "_from_dict", "_row_kind")

    _fields: List[str]
    _values: List[Any]
    _from_dict: bool
    _row_kind: RowKind

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            self._fields = list(kwargs.keys())
            self._values = [kwargs[n] for n in self._fields]
            self._from_dict = True
        else:
            self._values = list(args)
            self._from_dict = False
        self._row_kind = RowKind.INSERT

    # --- PyFlink's public methods -------------------------------------------------------------

    def as_dict(self, recursive: bool = False) -> Dict[str, Any]:
        """The row as a dict from field name to value.

        >>> Row(key=1, value=Row(name='a', age=2)).as_dict()
        {'key': 1, 'value': Row(name='a', age=2)}
        >>> Row(key=1, value=Row(name='a', age=2)).as_dict(True)
        {'key': 1, 'value': {'name': 'a', 'age': 2}}

        :param recursive: also turn nested rows (inside lists and dicts too) into dicts.
        :return: a new dict.
        :raises TypeError: if the row has no field names.
        """
        if not self._has_fields():
            raise TypeError("Cannot convert a Row class into dict")
        if not recursive:
            return dict(zip(self._fields, self._values))

        def conv(obj: Any) -> Any:
            if isinstance(obj, Row):
                return obj.as_dict(True)
            if isinstance(obj, list):
                return [conv(o) for o in obj]
            if isinstance(obj, dict):
                return {k: conv(v) for k, v in obj.items()}
            return obj

        return dict(zip(self._fields, (conv(v) for v in self._values)))

    def get_row_kind(self) -> RowKind:
        """The kind of change this row stands for (``RowKind.INSERT`` unless set).

        :return: the row kind.
        """
        return self._row_kind

    def set_row_kind(self, row_kind: RowKind) -> None:
        """Set the kind of change this row stands for.

        :param row_kind: the new kind.
        """
        self._row_kind = row_kind

    def set_field_names(self, field_names: List[str]) -> None:
        """Name the fields of this row (turning a positional row into a named one).

        :param field_names: one name per value.
        """
        self._fields = field_names

    def get_fields_by_names(self, names: List[str]) -> List[Any]:
        """The values of the given fields, in the order of ``names``.

        A row without names, or one whose names are exactly ``names``, returns
        its values as they are.

        :param names: field names.
        :return: the values.
        :raises ValueError: if a name is not a field of this row.
        """
        if not self._has_fields() or names == self._fields:
            return self._values
        missing = [n for n in names if n not in self._fields]
        if missing:
            raise ValueError("Field names {0} not exist in {1}.".format(missing, self._fields))
        return [self._values[self._fields.index(n)] for n in names]

    @staticmethod
    def of_kind(row_kind: RowKind, *args: Any, **kwargs: Any) -> "Row":
        """Create a row of the given kind.

        >>> Row.of_kind(RowKind.DELETE, 1, 'a').get_row_kind()
        <RowKind.DELETE: 3>

        :param row_kind: the kind of the new row.
        :param args: positional values, as for :class:`Row`.
        :param kwargs: named values, as for :class:`Row`.
        :return: the new row.
        """
        row = Row(*args, **kwargs)
        row.set_row_kind(row_kind)
        return row

    def _is_retract_msg(self) -> bool:
        return self._row_kind in (RowKind.UPDATE_BEFORE, RowKind.DELETE)

    def _is_accumulate_msg(self) -> bool:
        return self._row_kind in (RowKind.UPDATE_AFTER, RowKind.INSERT)

    def _has_fields(self) -> bool:
        try:
            return self._fields is not None
        except AttributeError:
            return False

    # --- Python protocol ----------------------------------------------------------------------

    def __call__(self, *args: Any) -> "Row":
        """Create a named row whose field names are this row's values.

        :param args: the values, at most one per name.
        :return: the new named row (of this row's kind).
        :raises ValueError: if more values than names are given.
        """
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values "
                             "but got %s" % (self, len(self), args))
        return _create_row(list(self._values), args, self._row_kind)

    def __contains__(self, item: object) -> bool:
        if self._has_fields():
            return item in self._fields
        return item in self._values

    def __getitem__(self, item: Union[int, slice, str]) -> Any:
        if isinstance(item, (int, slice)):
            return self._values[item]
        if not self._has_fields():
            raise AttributeError("_fields: the row has no field names, so %r cannot be looked up"
                                 % (item,))
        try:
            return self._values[self._fields.index(item)]
        except IndexError:
            raise KeyError(item) from None
        except ValueError:
            raise ValueError(item) from None

    def __setitem__(self, key: Union[int, slice, str], value: Any) -> None:
        if isinstance(key, (int, slice)):
            self._values[key] = value
            return
        if not self._has_fields():
            raise KeyError(key)
        try:
            self._values[self._fields.index(key)] = value
        except IndexError:
            raise KeyError(key) from None
        except ValueError:
            raise ValueError(key) from None

    def __getattr__(self, item: str) -> Any:
        # Only called when normal lookup fails: unset slots and field names end up here.
        if item.startswith("_"):
            raise AttributeError(item)
        if not self._has_fields():
            raise AttributeError(item)
        try:
            return self._values[self._fields.index(item)]
        except (IndexError, ValueError):
            raise AttributeError(item) from None

    def __setattr__(self, key: str, value: Any) -> None:
        if key not in _INTERNAL_ATTRIBUTES:
            raise AttributeError(key)
        object.__setattr__(self, key, value)

    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickle support: the names (if any), the values and the kind."""
        fields = list(self._fields) if self._has_fields() else None
        return _create_row, (fields, tuple(self._values), self._row_kind)

    def __repr__(self) -> str:
        if self._has_fields():
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self._fields, self._values))
        return "<Row(%s)>" % ", ".join(repr(v) for v in self._values)

    def _by_sorted_names(self) -> List[Any]:
        # The values in the order of the sorted field names; the first of duplicate names wins,
        # as with list.index.
        first: Dict[str, Any] = {}
        for name, value in zip(self._fields, self._values):
            first.setdefault(name, value)
        return [first.get(n) for n in sorted(self._fields)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Row):
            return False
        if type(self) is not type(other) or self._row_kind != other._row_kind:
            return False
        if self._has_fields():
            if not other._has_fields() or sorted(self._fields) != sorted(other._fields):
                return False
            return self._by_sorted_names() == other._by_sorted_names()
        if other._has_fields():
            return False
        return self._values == other._values

    def __hash__(self) -> int:
        # PyFlink hashes tuple(values); named rows hash their values in sorted-name order so that
        # rows that compare equal (same names, any order) also hash equal.
        if self._has_fields():
            return hash(tuple(self._by_sorted_names()))
        return hash(tuple(self._values))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)
