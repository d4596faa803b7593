import { BadRequestException, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectModel } from '@nestjs/mongoose';
import {
  EVENTS,
  type AdminUserListQuery,
  type AuthResponse,
  type PublicUser,
  type Role,
  type TokenClaims,
  type UserDeletedEvent,
  type UserRoleChangedEvent,
} from '@shop/contracts';
import { EventBus, isDuplicateKeyError, REDIS, TokenRevocations, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Model } from 'mongoose';
import { CreateUserDto } from './dto/create-user.dto';
import { LoginDto } from './dto/login.dto';
import { RegisterDto } from './dto/register.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { LoginThrottle } from './login-throttle';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password';
import { UserDirectory } from './user-directory';
import { toPublicUser, User, UserDocument } from './user.schema';

export const USER_EXISTS = 'User already exists';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const USER_NOT_FOUND = 'User not found';

/** Changes to who is an admin are serialised, so two admins demoting each other cannot leave none. */
const ADMINS_LOCK = 'identity:lock:admins';

@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly jwt: JwtService,
    private readonly revocations: TokenRevocations,
    private readonly throttle: LoginThrottle,
    private readonly events: EventBus,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly directory: UserDirectory,
  ) {}

  async register(dto: RegisterDto): Promise<AuthResponse> {
    const user = await this.insert({ name: dto.name, email: dto.email, password: dto.password, role: 'customer' });
    this.events.notify(EVENTS.identity.userRegistered, {
      userId: String(user._id),
      name: user.name,
      email: user.email,
    });
    return this.session(user);
  }

  async login(dto: LoginDto): Promise<AuthResponse> {
    await this.throttle.assertAllowed(dto.email);
    const user = await this.users.findOne({ email: dto.email }).exec();
    const ok = await verifyPassword(dto.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) {
      await this.throttle.recordFailure(dto.email);
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.throttle.reset(dto.email);
    return this.session(user);
  }

  async profile(userId: string): Promise<PublicUser> {
    return toPublicUser(await this.get(userId));
  }

  async findPublic(userId: string): Promise<PublicUser | null> {
    const user = /^[0-9a-f]{24}$/i.test(userId) ? await this.users.findById(userId).exec() : null;
    return user ? toPublicUser(user) : null;
  }

  async list(): Promise<PublicUser[]> {
    const users = await this.users.find().sort({ createdAt: -1 }).exec();
    return users.map(toPublicUser);
  }

  /** One page of the admin list, and how many users match in all (see UserDirectory). */
  listPage(query: AdminUserListQuery): Promise<{ total: number; users: PublicUser[] }> {
    return this.directory.page(query);
  }

  async create(dto: CreateUserDto): Promise<PublicUser> {
    const user = await this.insert({ ...dto, role: dto.role ?? 'customer' });
    return toPublicUser(user);
  }

  async update(actorId: string, userId: string, dto: UpdateUserDto): Promise<PublicUser> {
    const changesRole = dto.role !== undefined;
    const apply = async () => {
      const user = await this.get(userId);
      const previousRole = user.role;
      if (changesRole && dto.role !== user.role && user.role === 'admin')
        await this.assertAdminMayGo(actorId, user, 'demote');
      if (dto.name !== undefined) user.name = dto.name;
      if (dto.email !== undefined) user.email = dto.email;
      if (dto.role !== undefined) user.role = dto.role;
      const roleChanged = user.role !== previousRole;
      // The old tokens are void before the admin hears "updated": the very next request with one is 401.
      const revokedBefore = Date.now();
      if (roleChanged) await this.revocations.revokeBefore(userId, revokedBefore);
      try {
        await user.save();
      } catch (err) {
        if (isDuplicateKeyError(err)) throw new BadRequestException(USER_EXISTS);
        throw err;
      }
      await this.directory.changed(userId);
      if (roleChanged) {
        this.events.notify<UserRoleChangedEvent>(EVENTS.identity.userRoleChanged, {
          userId,
          role: user.role,
          previousRole,
          revokedBefore,
        });
      }
      return toPublicUser(user);
    };
    return changesRole ? withRedisLock(this.redis, ADMINS_LOCK, apply) : apply();
  }

  async remove(actorId: string, userId: string): Promise<void> {
    await withRedisLock(this.redis, ADMINS_LOCK, async () => {
      const user = await this.get(userId);
      if (user.role === 'admin' || actorId === userId) await this.assertAdminMayGo(actorId, user, 'delete');
      const revokedBefore = Date.now();
      await this.revocations.revokeBefore(userId, revokedBefore);
      await this.users.deleteOne({ _id: user._id }).exec();
      await this.directory.changed(userId);
      this.events.notify<UserDeletedEvent>(EVENTS.identity.userDeleted, { userId, revokedBefore });
    });
  }

  /** Creates a user unless one with the email exists; the unique index decides races. */
  async insert(input: { name: string; email: string; password: string; role: Role }): Promise<UserDocument> {
    const passwordHash = await hashPassword(input.password);
    let user: UserDocument;
    try {
      user = await this.users.create({ name: input.name, email: input.email, passwordHash, role: input.role });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new BadRequestException(USER_EXISTS);
      throw err;
    }
    await this.directory.changed(String(user._id));
    return user;
  }

  private async get(userId: string): Promise<UserDocument> {
    const user = await this.users.findById(userId).exec();
    if (!user) throw new NotFoundException(USER_NOT_FOUND);
    return user;
  }

  private async assertAdminMayGo(actorId: string, user: UserDocument, action: 'demote' | 'delete'): Promise<void> {
    if (String(user._id) === actorId) throw new BadRequestException(`You cannot ${action} yourself`);
    if (user.role === 'admin' && (await this.users.countDocuments({ role: 'admin' }).exec()) <= 1) {
      throw new BadRequestException(`You cannot ${action} the last admin`);
    }
  }

  /** A user was written behind these methods (a password reset): the admin lists must reload it. */
  changed(userId: string): Promise<void> {
    return this.directory.changed(userId);
  }

  /** What register, login and a password reset answer: the user and a token issued at `iatMs` (now by default). */
  session(user: UserDocument, iatMs = Date.now()): AuthResponse {
    const claims: TokenClaims = { sub: String(user._id), role: user.role, name: user.name, iatMs };
    return { user: toPublicUser(user), token: this.jwt.sign(claims) };
  }
}
